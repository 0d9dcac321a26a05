// Gemini CLI 0.61.0 from npm, wired by `buckler hooks merge --harness gemini-cli`.
import { GEMINI_CLI } from './harness.ts';
import { clientSuite } from './suite.ts';

clientSuite(GEMINI_CLI, 'Gemini CLI 0.61.0');
