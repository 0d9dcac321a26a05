import { describe, expect, it } from 'vitest';
import { isShellHook, isShellScript, shebangInterpreter } from './shell-script.ts';

describe('shebangInterpreter', () => {
  it.each([
    ['#!/bin/sh\necho', 'sh'],
    ['#!/usr/bin/env bash\n', 'bash'],
    ['#! /bin/bash -e\n', 'bash'],
    ['#!/usr/bin/env -S bash -eu\n', 'bash'],
    ['#!/usr/bin/env LANG=C dash\n', 'dash'],
    ['#!/usr/bin/env python3\n', 'python3'],
    ['#!\n', ''],
    ['echo hi\n', null],
    [' #!/bin/sh\n', null],
  ] as const)('%j → %j', (text, want) => expect(shebangInterpreter(text)).toBe(want));
});

describe('isShellScript', () => {
  it.each([
    ['deploy.sh', 'rm -rf x', true],
    ['deploy.bash', '', true],
    ['setup', '#!/usr/bin/env bash\n', true],
    ['setup', '#!/bin/sh\n', true],
    // Look-alikes: another interpreter wins over the name; no ending and no #! line.
    ['tool.sh', '#!/usr/bin/env python3\n', false],
    ['setup', 'rm -rf x\n', false],
    ['setup.py', '#!/usr/bin/env python3\n', false],
    ['notes.shtml', '', false],
  ] as const)('%s %j → %j', (name, text, want) => expect(isShellScript(name, text)).toBe(want));
});

describe('isShellHook', () => {
  it.each([
    ['npx lint-staged\n', true],
    ['#!/bin/sh\nmake test\n', true],
    ['#!/usr/bin/env node\nrequire("x")\n', false],
  ] as const)('%j → %j', (text, want) => expect(isShellHook(text)).toBe(want));
});
