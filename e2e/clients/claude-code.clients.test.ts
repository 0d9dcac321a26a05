// Claude Code 2.1.332 from npm, wired by `buckler hooks merge --harness claude-code`.
import { CLAUDE_CODE } from './harness.ts';
import { clientSuite } from './suite.ts';

clientSuite(CLAUDE_CODE, 'Claude Code 2.1.332');
