// Qwen Code 0.24.4 from npm, wired by `buckler hooks merge --harness qwen-code`.
import { QWEN_CODE } from './harness.ts';
import { clientSuite } from './suite.ts';

clientSuite(QWEN_CODE, 'Qwen Code 0.24.4');
