/**
 * What a person does to the policy's state (allow-once grants and revocations, granting and
 * revoking trust in a project's rules) goes to the audit log unless config.toml says
 * `audit_log = false` (docs/audit-log.md). Not on the hook path: it reads config.toml itself.
 */
import fs from 'node:fs';
import type { AuditEvent } from '../audit/record.ts';
import { parseConfig } from '../packs/config.ts';
import { recordDecision } from './audit.ts';
import type { CliIO } from './io.ts';
import { processPaths } from './process-paths.ts';

export function auditPersonAction(io: Pick<CliIO, 'env' | 'err'>, event: AuditEvent): void {
  const file = processPaths(io.env).configFile;
  let text: string | null = null;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    /* no config: the default records them */
  }
  if (text !== null && parseConfig(text, file).config.audit_log === false) return;
  recordDecision(io, event);
}
