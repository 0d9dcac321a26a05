// GitHub Copilot CLI 1.0.102 from npm, native hooks wired by `buckler hooks merge --harness copilot-cli`.
import { COPILOT_CLI } from './harness.ts';
import { clientSuite } from './suite.ts';

clientSuite(COPILOT_CLI, 'GitHub Copilot CLI 1.0.102');
