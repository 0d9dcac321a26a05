// Codex CLI 0.169.0 from npm, wired by `buckler hooks merge --harness codex` (run with
// --dangerously-bypass-hook-trust: trusting a hook is the person's step, see docs/adapters/codex.md).
import { CODEX } from './harness.ts';
import { clientSuite } from './suite.ts';

clientSuite(CODEX, 'Codex CLI 0.169.0');
