// OpenCode 1.18.33 from npm, wired by `buckler hooks merge --harness opencode` (Buckler's plugin).
import { OPENCODE } from './harness.ts';
import { clientSuite } from './suite.ts';

clientSuite(OPENCODE, 'OpenCode 1.18.33');
