// Kilo Code CLI 7.7.9 from npm, wired by `buckler hooks merge --harness kilo-code` (Buckler's plugin).
import { KILO_CODE } from './harness.ts';
import { clientSuite } from './suite.ts';

clientSuite(KILO_CODE, 'Kilo Code 7.7.9');
