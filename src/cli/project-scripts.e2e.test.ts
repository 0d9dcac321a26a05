/**
 * Issue 21, route 8, through the built command with Claude Code and Cursor hook payloads, both
 * tiers: the scripts agents run most are read (package.json scripts with their pre/post
 * scripts, Makefile recipes and their prerequisites, interpreter script files), and a script
 * Buckler could not read (over the read bound, a FIFO, produced by the line) asks (strict:
 * denies), naming the file. Each with the look-alikes that must stay allowed.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { e2eDir, hook, hookDecision, replyOf, shellEvent } from './e2e.testing.ts';

const tmp = e2eDir('buckler-project-scripts-');
const HOME = path.join(tmp, 'home');
const PROJECT = path.join(HOME, 'proj');
const config = { baseline: path.join(tmp, 'baseline'), strict: path.join(tmp, 'strict'), raised: path.join(tmp, 'raised') };
/** docs/packs.md ("Scripts Buckler reads"): a rule that allows one large script. */
const ALLOW_CONFIGURE = `pack: configure
rules:
  - id: allow-configure
    trigger: [pre_shell_exec, pre_shell_tool]
    match:
      shell_segments:
        - unseen: [unreadable]
          unseen_file: [./configure]
    action: allow
    priority: 60
    examples:
      match: ["cp configure.in configure && bash ./configure"]
      no_match: [bash ./other.sh]
`;

const PUSH = 'git push --force origin main';
const packageJson = {
  name: 'app',
  scripts: {
    lint: 'eslint .',
    test: 'vitest run',
    pretest: 'node scripts/gen.js',
    build: 'tsc -p .',
    deploy: PUSH,
    prerelease: 'git commit -am release',
    release: 'echo released',
    fmt: 'prettier --write . && git',
    unhook: 'buckler hooks strip --harness claude-code',
  },
};
const makefile = [
  'CC ?= cc',
  'CFLAGS := -O2',
  '',
  '.PHONY: all test deploy clean',
  'all: app',
  '',
  'app: main.o',
  '\t$(CC) $(CFLAGS) -o $@ $^',
  '',
  'main.o: main.c',
  '\t$(CC) $(CFLAGS) -c $< -o $@',
  '',
  'test: all',
  '\t./run-tests --verbose',
  '',
  'ship: test',
  '\t@git push --force \\',
  '\t  origin main',
  '',
  'clean:',
  '\trm -rf app *.o',
].join('\n');

beforeAll(() => {
  fs.mkdirSync(path.join(PROJECT, '.git'), { recursive: true });
  fs.mkdirSync(path.join(PROJECT, 'scripts'));
  fs.mkdirSync(path.join(PROJECT, 'web'));
  for (const [tier, dir] of Object.entries(config)) {
    fs.mkdirSync(path.join(dir, 'rules.d'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'config.toml'), `[core]\ntier = "${tier === 'raised' ? 'strict' : tier}"\n`);
  }
  fs.writeFileSync(path.join(config.raised, 'rules.d', 'configure.yaml'), ALLOW_CONFIGURE);
  const put = (rel: string, text: string): void => fs.writeFileSync(path.join(PROJECT, rel), text);
  put('package.json', JSON.stringify(packageJson, null, 2));
  put('web/package.json', JSON.stringify({ scripts: { start: 'vite', publish: PUSH } }));
  put('Makefile', makefile);
  put('scripts/gen.js', "const fs = require('node:fs');\nfs.writeFileSync('out.txt', 'x');\n");
  put('scripts/evil.js', `const { execSync } = require('node:child_process');\nexecSync('${PUSH}');\n`);
  put('manage.py', 'import sys\nprint(sys.argv)\n');
  put('evil.py', `import subprocess\nsubprocess.run(["git", "push", "--force", "origin", "main"])\n`);
  put('ok.sh', '#!/bin/sh\necho hello\n');
  // Over the 1 MiB read bound; its second line pushes.
  put('big.sh', `#!/bin/sh\n${PUSH}\n${'# padding padding padding padding padding padding\n'.repeat(22_000)}`);
  // A generated 600 KB configure script: read, too large to analyse within the budget.
  put('configure', `#!/bin/sh\n${'as_fn_set_status () { return $1; } # generated\ntest -f conftest.c && echo checking\n'.repeat(7_000)}`);
  execFileSync('mkfifo', [path.join(PROJECT, 'fifo.sh')]);
});

type D = 'allow' | 'ask' | 'deny';

function decide(driver: 'claude-code' | 'cursor', command: string, tier: keyof typeof config): D {
  const env = { PATH: process.env['PATH'] ?? '', HOME, BUCKLER_CONFIG_HOME: config[tier], BUCKLER_STATE_HOME: path.join(tmp, 'state'), BUCKLER_DATA_HOME: path.join(tmp, 'data') };
  return hookDecision(driver, shellEvent(driver, command, PROJECT), { env, timeout: 30_000 }) as D;
}

const READ_RULE = 'agent-tamper/unreadable-script';

/** [command, baseline, strict]. */
const CASES: Array<[string, D, D]> = [
  // package.json: the script, its pre/post scripts, the arguments handed to it.
  ['npm run deploy', 'deny', 'deny'],
  ['npm run-script deploy', 'deny', 'deny'],
  ['npm run --silent deploy', 'deny', 'deny'],
  ['npm run release', 'deny', 'deny'],
  ['npm run fmt -- push --force', 'deny', 'deny'],
  ['npm run unhook', 'deny', 'deny'],
  ['yarn deploy', 'deny', 'deny'],
  ['pnpm run deploy', 'deny', 'deny'],
  ['bun run deploy', 'deny', 'deny'],
  ['cd web && npm run publish', 'deny', 'deny'],
  ['npm --prefix web run publish', 'ask', 'deny'],
  // Makefile: the recipes of the goal and of its prerequisites.
  ['make ship', 'deny', 'deny'],
  ['make -C . ship', 'deny', 'deny'],
  ['make -j4 -f Makefile ship', 'deny', 'deny'],
  // Interpreter script files, read like their -c/-e code.
  ['node scripts/evil.js', 'deny', 'deny'],
  ['python3 evil.py', 'deny', 'deny'],
  // Scripts Buckler could not read: over the bound, a FIFO, produced by the line.
  ['bash ./big.sh', 'ask', 'deny'],
  ['bash fifo.sh', 'ask', 'deny'],
  ['make -f fifo.sh', 'ask', 'deny'],
  ['cp ok.sh benign.sh && bash benign.sh', 'ask', 'deny'],
  ["printf 'buckler hooks strip\\n' > s.sh && bash s.sh", 'ask', 'deny'],
  ['cp scripts/evil.js scripts/tool.js && node scripts/tool.js', 'ask', 'deny'],
  // A large generated script is asked about in the baseline tier, never denied there.
  ['bash ./configure', 'ask', 'deny'],
  // Look-alikes that stay allowed in both tiers.
  ['npm run lint', 'allow', 'allow'],
  ['npm test', 'allow', 'allow'],
  ['npm run build', 'allow', 'allow'],
  ['cd web && npm start', 'allow', 'allow'],
  ['make -j4 all', 'allow', 'allow'],
  ['make test', 'allow', 'allow'],
  ['make', 'allow', 'allow'],
  ['make clean', 'allow', 'allow'],
  ['python3 manage.py test', 'allow', 'allow'],
  ['node scripts/gen.js', 'allow', 'allow'],
  ['bash ok.sh', 'allow', 'allow'],
  ['npm run no-such-script', 'allow', 'allow'],
];

describe('scripts Buckler reads, and scripts it could not read (issue 21, route 8)', () => {
  it.each(CASES)('%s → %s / %s', (command, base, strict) => {
    for (const driver of ['claude-code', 'cursor'] as const) {
      expect([driver, 'baseline', decide(driver, command, 'baseline')]).toEqual([driver, 'baseline', base]);
      expect([driver, 'strict', decide(driver, command, 'strict')]).toEqual([driver, 'strict', strict]);
    }
  });

  it('a rule naming the script allows it (the documented way to raise the bound for one project, strict tier); another unreadable script is still denied', () => {
    for (const driver of ['claude-code', 'cursor'] as const) {
      expect([driver, decide(driver, 'bash ./configure', 'raised')]).toEqual([driver, 'allow']);
      expect([driver, decide(driver, 'bash ./big.sh', 'raised')]).toEqual([driver, 'deny']);
    }
  });

  it('the ask names the file Buckler could not read', () => {
    const env = { PATH: process.env['PATH'] ?? '', HOME, BUCKLER_CONFIG_HOME: config.baseline, BUCKLER_STATE_HOME: path.join(tmp, 'state'), BUCKLER_DATA_HOME: path.join(tmp, 'data') };
    const r = hook('claude-code', shellEvent('claude-code', 'bash ./big.sh', PROJECT), { env });
    const reason = String(replyOf(r).hookSpecificOutput?.permissionDecisionReason ?? '');
    expect(reason).toContain('./big.sh');
    expect(reason).toContain(READ_RULE);
  });
});
