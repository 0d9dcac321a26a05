/**
 * The data, cloud, cluster, infrastructure, container and publishing packs and agent-secrets'
 * reads through tools (docs/packs.md, issue 23), end to end: each table row in wrapper
 * spellings (`sudo`, `bash -c`, `env`, a variable set earlier, `xargs`, `ssh host CMD`,
 * `docker exec`, `kubectl exec -- sh -c`) and the allowed examples, through the built bundle
 * (`buckler check --json --tier T`) and both drivers (`--driver claude-code` with a Bash
 * PreToolUse event, `--driver cursor` with beforeShellExecution), baseline and strict.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bucklerAsync, bundle } from './e2e.testing.ts';

let tmp: string;
let work: string;
const homes = { baseline: '', strict: '' };

beforeAll(() => {
  bundle();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-newpacks-'));
  work = path.join(tmp, 'work');
  fs.mkdirSync(work);
  // A local script: run on a line of its own it is read and analysed as before.
  fs.writeFileSync(path.join(work, 'install.sh'), '#!/bin/sh\necho installing\n');
  for (const tier of ['baseline', 'strict'] as const) {
    homes[tier] = path.join(tmp, `config-${tier}`);
    fs.mkdirSync(path.join(homes[tier], 'rules.d'), { recursive: true });
    fs.writeFileSync(path.join(homes[tier], 'config.toml'), `[core]\ntier = "${tier}"\n`);
  }
}, 120_000);
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function env(tier: 'baseline' | 'strict'): NodeJS.ProcessEnv {
  return {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: tmp,
    BUCKLER_CONFIG_HOME: homes[tier],
    BUCKLER_STATE_HOME: path.join(tmp, 'state'),
    BUCKLER_DATA_HOME: path.join(tmp, 'data'),
  };
}

async function spawn(args: string[], tier: 'baseline' | 'strict', stdin?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const r = await bucklerAsync(args, { cwd: work, env: env(tier), timeout: 30_000, ...(stdin === undefined ? {} : { stdin }) });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

async function viaCheck(command: string, tier: 'baseline' | 'strict'): Promise<{ decision: string; rule: string | null; agent: string; user: string }> {
  const r = await spawn(['check', '--json', '--tier', tier, '--', command], tier);
  expect(r.stderr).toBe('');
  const out = JSON.parse(r.stdout) as { decision: string; rule: string | null; agent_message?: string; user_message?: string };
  return { decision: out.decision, rule: out.rule, agent: out.agent_message ?? '', user: out.user_message ?? '' };
}

async function viaClaude(command: string, tier: 'baseline' | 'strict'): Promise<string> {
  const payload = { session_id: 's', transcript_path: '/t.jsonl', cwd: work, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, tool_use_id: 't1' };
  const r = await spawn(['--driver', 'claude-code'], tier, JSON.stringify(payload));
  expect(r.code, r.stderr).toBe(0);
  if (r.stdout.trim() === '') return 'allow';
  const s = (JSON.parse(r.stdout) as { hookSpecificOutput?: { permissionDecision?: string; additionalContext?: string } }).hookSpecificOutput;
  if (s?.permissionDecision === 'deny' || s?.permissionDecision === 'ask') return s.permissionDecision;
  return s?.additionalContext !== undefined ? 'nudge' : 'allow';
}

async function viaCursor(command: string, tier: 'baseline' | 'strict'): Promise<string> {
  const payload = { hook_event_name: 'beforeShellExecution', command, cwd: work, workspace_roots: [work], conversation_id: 'c', generation_id: 'g' };
  const r = await spawn(['--driver', 'cursor'], tier, JSON.stringify(payload));
  expect(r.code, r.stderr).toBe(0);
  if (r.stdout.trim() === '') return 'allow';
  const o = JSON.parse(r.stdout) as { permission?: string };
  return o.permission === 'deny' || o.permission === 'ask' ? o.permission : 'allow';
}

type D = 'allow' | 'ask' | 'deny';
/** [command, baseline, strict, rule deciding in baseline (pack/rule), …] */
type Row = [string, D, D, string?];

function table(name: string, rows: Row[]): void {
  describe(name, () => {
    it.each(rows)('%s', async (command, baseline, strict, rule) => {
      const [b, s, claudeB, cursorS] = await Promise.all([
        viaCheck(command, 'baseline'),
        viaCheck(command, 'strict'),
        viaClaude(command, 'baseline'),
        viaCursor(command, 'strict'),
      ]);
      expect(b.decision, 'check, baseline').toBe(baseline);
      expect(s.decision, 'check, strict').toBe(strict);
      if (rule !== undefined) {
        expect(b.rule).toBe(rule);
        expect(s.rule).toBe(`${rule}-strict`);
        // The strict deny does not tell the agent that the person was asked.
        expect(s.agent).not.toMatch(/has been asked/);
      }
      if (baseline !== 'allow') {
        // Messages quote the blocked command (the command the wrappers run).
        expect(b.user).toMatch(/`[^`]+`/);
        expect(b.user).not.toBe('');
        expect(b.agent).not.toBe('');
      }
      expect(claudeB, 'claude-code driver, baseline').toBe(baseline);
      expect(cursorS, 'cursor driver, strict').toBe(strict);
    });
  });
}

/** Rows with the other two (tier, driver) pairs, so that each driver is seen in both tiers. */
function crossTable(name: string, rows: Array<[string, D, D]>): void {
  describe(name, () => {
    it.each(rows)('%s', async (command, baseline, strict) => {
      const [claudeS, cursorB] = await Promise.all([viaClaude(command, 'strict'), viaCursor(command, 'baseline')]);
      expect(claudeS, 'claude-code driver, strict').toBe(strict);
      expect(cursorB, 'cursor driver, baseline').toBe(baseline);
    });
  });
}


const SQL = 'agent-data/sql-destructive';
const DROP = 'agent-data/database-drop';
const MIGRATE = 'agent-data/migration-reset';
const CLOUD = 'agent-cloud/cloud-delete';
const KDEL = 'agent-k8s/kubectl-delete';
const KDIS = 'agent-k8s/kubectl-disrupt';
const HELM = 'agent-k8s/helm-uninstall';
const IAC = 'agent-iac/destroy';
const PRUNE = 'agent-containers/prune-or-volumes';
const RMALL = 'agent-containers/remove-all';
const PUB = 'agent-publish/publish';
const SECRET = 'agent-secrets/secret-value-read';

table('agent-data', [
  ["psql -c 'DROP TABLE users'", 'ask', 'deny', SQL],
  ["sudo -u postgres psql -c 'drop database app'", 'ask', 'deny', SQL],
  ["ssh db1 \"psql -c 'TRUNCATE events'\"", 'ask', 'deny', SQL],
  ['mysql -u root -p -e "DROP DATABASE shop"', 'ask', 'deny', SQL],
  ['dropdb app_dev', 'ask', 'deny', DROP],
  ['docker exec redis redis-cli FLUSHALL', 'ask', 'deny', DROP],
  ["redis-cli --scan --pattern 'session:*' | xargs redis-cli del", 'ask', 'deny', DROP],
  ["kubectl exec -it mongo-0 -- sh -c \"mongosh --eval 'db.dropDatabase()'\"", 'ask', 'deny', DROP],
  ['npx prisma migrate reset --force', 'ask', 'deny', MIGRATE],
  ['env RAILS_ENV=development bin/rails db:drop', 'ask', 'deny', MIGRATE],
  ["psql -c 'SELECT * FROM users'", 'allow', 'allow'],
  ['pg_dump app', 'allow', 'allow'],
  ['redis-cli GET key', 'allow', 'allow'],
  ["mongosh --eval 'db.c.find()'", 'allow', 'allow'],
  ['prisma migrate dev', 'allow', 'allow'],
]);

table('agent-cloud', [
  ['aws s3 rb s3://backups --force', 'ask', 'deny', CLOUD],
  ["bash -c 'aws ec2 terminate-instances --instance-ids i-1'", 'ask', 'deny', CLOUD],
  ['P=prod; aws --profile $P s3 rm s3://b/logs --recursive', 'ask', 'deny', CLOUD],
  ['sudo gcloud projects delete p', 'ask', 'deny', CLOUD],
  ['az group delete --name rg --yes', 'ask', 'deny', CLOUD],
  ['aws s3 ls', 'allow', 'allow'],
  ['aws sts get-caller-identity', 'allow', 'allow'],
  ['gcloud config set project p', 'allow', 'allow'],
  ['az account show', 'allow', 'allow'],
]);

table('agent-k8s', [
  ['kubectl delete ns x', 'ask', 'deny', KDEL],
  ["bash -c 'kubectl -n prod delete deploy api'", 'ask', 'deny', KDEL],
  ['echo payments | xargs kubectl delete namespace', 'ask', 'deny', KDEL],
  ['ssh bastion kubectl drain node-1', 'ask', 'deny', KDIS],
  ['helm uninstall web', 'ask', 'deny', HELM],
  ['kubectl get pods -A', 'allow', 'allow'],
  ['kubectl apply -f k8s/', 'allow', 'allow'],
  ['kubectl delete pod x --dry-run=client', 'allow', 'allow'],
  ['helm template web ./chart', 'allow', 'allow'],
]);

table('agent-iac', [
  ['terraform destroy -auto-approve', 'ask', 'deny', IAC],
  ['env TF_LOG=1 terraform -chdir=infra destroy', 'ask', 'deny', IAC],
  ["sh -c 'pulumi destroy --yes'", 'ask', 'deny', IAC],
  ['terraform plan -destroy', 'allow', 'allow'],
  ['terraform state list', 'allow', 'allow'],
]);

table('agent-containers', [
  ['docker system prune -af', 'ask', 'deny', PRUNE],
  ['sudo docker compose down -v', 'ask', 'deny', PRUNE],
  ['docker rm -f $(docker ps -aq)', 'ask', 'deny', RMALL],
  ['docker ps -aq | xargs docker rm -f', 'ask', 'deny', RMALL],
  ['docker compose down', 'allow', 'allow'],
  ['docker rm -f web', 'allow', 'allow'],
]);

table('agent-publish', [
  ['npm publish', 'ask', 'deny', PUB],
  ["bash -c 'cargo publish'", 'ask', 'deny', PUB],
  ['env NPM_CONFIG_OTP=1 pnpm publish', 'ask', 'deny', PUB],
  ['docker push registry.example.com/app:1', 'ask', 'deny', PUB],
  ['npm publish --dry-run', 'allow', 'allow'],
  ['npm pack', 'allow', 'allow'],
  ['twine check dist/*', 'allow', 'allow'],
]);

table('agent-secrets through tools', [
  ['aws secretsmanager get-secret-value --secret-id prod/db', 'ask', 'deny', SECRET],
  ['kubectl get secret db -o yaml', 'ask', 'deny', SECRET],
  ["sudo bash -c 'vault kv get secret/app'", 'ask', 'deny', SECRET],
  ['kubectl get secrets', 'allow', 'allow'],
  ['aws secretsmanager list-secrets', 'allow', 'allow'],
]);

crossTable('the other driver and tier pairs', [
  ['terraform destroy -auto-approve', 'ask', 'deny'],
  ['kubectl delete ns x', 'ask', 'deny'],
  ['npm publish', 'ask', 'deny'],
  ["psql -c 'DROP TABLE users'", 'ask', 'deny'],
  ['kubectl get pods', 'allow', 'allow'],
  ['npm pack', 'allow', 'allow'],
]);
