/**
 * `buckler test --json` and `buckler test --junit FILE` through the built bundle: the JSON
 * outcome, and JUnit XML that is well-formed (checked by a strict reader below) and whose
 * counts match the cases; `validate --json` with a problem in a user pack.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buckler, e2eDir, homeEnv } from './e2e.testing.ts';

const home = e2eDir('buckler-ptest-report-');

interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const ENTITY: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const decode = (s: string, where: string): string =>
  s.replace(/&([^;]*);|&/g, (m, name: string | undefined) => {
    if (name === undefined || !Object.hasOwn(ENTITY, name)) throw new Error(`bad entity ${m} in ${where}`);
    return ENTITY[name] as string;
  });

/** A strict reader of the XML this command writes: one root, nested tags, quoted attributes, entities. Throws when not well-formed. */
function parseXml(xml: string): XmlElement {
  let i = 0;
  const decl = /^<\?xml version="1\.0" encoding="UTF-8"\?>\n/.exec(xml);
  if (!decl) throw new Error('no XML declaration');
  i = decl[0].length;
  const root: XmlElement = { name: '#document', attrs: {}, children: [], text: '' };
  const stack: XmlElement[] = [root];
  while (i < xml.length) {
    const top = stack[stack.length - 1] as XmlElement;
    if (xml[i] !== '<') {
      const end = xml.indexOf('<', i);
      const raw = xml.slice(i, end < 0 ? xml.length : end);
      if (raw.includes('>')) throw new Error(`raw > in text at ${i}`);
      top.text += decode(raw, `text at ${i}`);
      if (stack.length === 1 && raw.trim() !== '') throw new Error('text outside the root');
      i = end < 0 ? xml.length : end;
      continue;
    }
    const close = /^<\/([A-Za-z_][\w.-]*)\s*>/.exec(xml.slice(i));
    if (close) {
      if (top.name !== close[1]) throw new Error(`</${close[1]}> closes <${top.name}>`);
      stack.pop();
      i += close[0].length;
      continue;
    }
    const open = /^<([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.-]*="[^"<]*")*)\s*(\/?)>/.exec(xml.slice(i));
    if (!open) throw new Error(`bad tag at ${i}: ${xml.slice(i, i + 40)}`);
    const el: XmlElement = { name: open[1] as string, attrs: {}, children: [], text: '' };
    for (const a of (open[2] as string).matchAll(/([A-Za-z_][\w.-]*)="([^"]*)"/g)) {
      if (Object.hasOwn(el.attrs, a[1] as string)) throw new Error(`attribute ${a[1]} twice`);
      el.attrs[a[1] as string] = decode(a[2] as string, `attribute ${a[1]}`);
    }
    if (stack.length === 1 && root.children.length > 0) throw new Error('two roots');
    top.children.push(el);
    if (open[3] !== '/') stack.push(el);
    i += open[0].length;
  }
  if (stack.length !== 1) throw new Error(`<${stack[stack.length - 1]?.name}> not closed`);
  if (root.children.length !== 1) throw new Error('no root');
  return root.children[0] as XmlElement;
}

const CASES = `cases:
  - name: force push <is> denied & "logged"
    command: git push --force origin main
    decision: deny
    rule: agent-git/no-force-push
  - command: git status
    decision: allow
  - name: wrong on purpose
    command: git status
    decision: deny
`;
const MORE = `cases:
  - command: git commit -m x
    decision: deny
  - command: ls
    decision: ask
    rule: null
`;

function run(args: string[]): ReturnType<typeof buckler> {
  fs.writeFileSync(path.join(home, 'a.yaml'), CASES);
  fs.writeFileSync(path.join(home, 'b.yaml'), MORE);
  return buckler(args, { cwd: home, env: homeEnv(home) });
}

describe('buckler test --json', () => {
  it('one JSON object: ok, counts, each case with expected and got', () => {
    const r = run(['test', '--json', 'a.yaml', 'b.yaml']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(1);
    const out = JSON.parse(r.stdout);
    expect([out.ok, out.total, out.failed]).toEqual([false, 5, 2]);
    expect(out.cases.map((c: any) => [c.file, c.line, c.ok, c.expected, c.got])).toEqual([
      ['a.yaml', 2, true, { decision: 'deny', rule: 'agent-git/no-force-push' }, { decision: 'deny', rule: 'agent-git/no-force-push' }],
      ['a.yaml', 6, true, { decision: 'allow' }, { decision: 'allow', rule: null }],
      ['a.yaml', 8, false, { decision: 'deny' }, { decision: 'allow', rule: null }],
      ['b.yaml', 2, true, { decision: 'deny' }, { decision: 'deny', rule: 'agent-git/no-commit' }],
      ['b.yaml', 4, false, { decision: 'ask', rule: null }, { decision: 'allow', rule: null }],
    ]);
    expect(out.cases[2].why).toBe("buckler explain 'git status'");
  });

  it('all passing: ok true, exit 0', () => {
    const r = run(['test', '--json', 'a.yaml']);
    fs.writeFileSync(path.join(home, 'good.yaml'), 'cases:\n  - command: ls\n    decision: allow\n');
    const good = buckler(['test', '--json', 'good.yaml'], { cwd: home, env: homeEnv(home) });
    expect(r.status).toBe(1);
    expect(JSON.parse(good.stdout)).toMatchObject({ ok: true, total: 1, failed: 0 });
    expect(good.status).toBe(0);
  });
});

describe('buckler test --junit FILE', () => {
  it('well-formed JUnit XML whose counts match the cases; the text report still on stdout', () => {
    const r = run(['test', '--junit', 'report/junit.xml', 'a.yaml', 'b.yaml']);
    // The directory does not exist: a one-line error, exit 2.
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^buckler test: cannot write report\/junit\.xml \(ENOENT\)\n$/);
    fs.mkdirSync(path.join(home, 'report'), { recursive: true });
    const ok = run(['test', '--junit', 'report/junit.xml', 'a.yaml', 'b.yaml']);
    expect(ok.status).toBe(1);
    expect(ok.stdout).toMatch(/^failed: 5 cases, 2 failed$/m);
    const root = parseXml(fs.readFileSync(path.join(home, 'report', 'junit.xml'), 'utf8'));
    expect(root.name).toBe('testsuites');
    expect([root.attrs.tests, root.attrs.failures, root.attrs.errors]).toEqual(['5', '2', '0']);
    expect(root.children.map((s) => [s.name, s.attrs.name, s.attrs.tests, s.attrs.failures])).toEqual([
      ['testsuite', 'a.yaml', '3', '1'],
      ['testsuite', 'b.yaml', '2', '1'],
    ]);
    const cases = root.children.flatMap((s) => s.children);
    expect(cases.every((c) => c.name === 'testcase')).toBe(true);
    expect(cases.map((c) => c.attrs.name)).toEqual(['force push <is> denied & "logged"', 'git status', 'wrong on purpose', 'git commit -m x', 'ls']);
    const failures = cases.flatMap((c) => c.children);
    expect(failures.map((f) => [f.name, f.attrs.message])).toEqual([
      ['failure', 'expected deny, got allow'],
      ['failure', 'expected ask (no rule), got allow (no rule)'],
    ]);
    expect(failures[0]?.text).toContain("why: buckler explain 'git status'");
  });

  it('the strict reader refuses what is not well-formed', () => {
    const head = '<?xml version="1.0" encoding="UTF-8"?>\n';
    for (const bad of ['<a><b></a></b>', '<a x=1/>', '<a>&nope;</a>', '<a>x & y</a>', '<a/><b/>', '<a>']) expect(() => parseXml(head + bad), bad).toThrow();
    expect(parseXml(`${head}<a x="&lt;"><b/>t</a>`).attrs.x).toBe('<');
  });
});

describe('buckler validate --json', () => {
  it('each problem with severity, file, line, rule and message; exit 1 on an error', () => {
    const rules = path.join(home, 'config', 'rules.d');
    fs.mkdirSync(rules, { recursive: true });
    fs.writeFileSync(path.join(rules, 'team.yaml'), 'pack: team\nrules:\n  - id: bad\n    trigger: pre_shell_exec\n    match: { shell_segments: [{ program: make }] }\n    action: explode\n');
    const r = buckler(['validate', '--json'], { cwd: home, env: homeEnv(home) });
    expect(r.status).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out.ok).toBe(false);
    expect(out.errors).toBeGreaterThanOrEqual(1);
    const p = out.problems.find((x: any) => x.file.endsWith('team.yaml'));
    expect(p).toMatchObject({ severity: 'error', line: 6, rule: 'team/bad' });
    expect(p.message).toMatch(/action/);
    fs.rmSync(path.join(rules, 'team.yaml'));
    const clean = buckler(['validate', '--json'], { cwd: home, env: homeEnv(home) });
    expect(JSON.parse(clean.stdout)).toMatchObject({ ok: true, errors: 0, problems: [] });
    expect(clean.status).toBe(0);
  });
});
