// Factory Droid 0.225.2 (native build of @factory/cli 0.225) from npm, wired by `buckler hooks merge --harness factory-droid`.
import { FACTORY_DROID } from './harness.ts';
import { clientSuite } from './suite.ts';

clientSuite(FACTORY_DROID, 'Factory Droid 0.225.2');
