/** Where script text came from (provenance.ts): the earlier commands that wrote, named or fed it. */
import { describe, expect, it } from 'vitest';
import type { SimpleCommand } from './ast.ts';
import { firstCommand } from './parts.testing.ts';
import { MAX_SOURCES, Provenance, dedupeSources, samePath, sourcesOf, unseenCommand, urlName, withSources } from './provenance.ts';
import type { ScriptSource, ShellCommand } from './types.ts';
import { WorkBudget } from './work.ts';

const cmd = (line: string, opaque = false): ShellCommand => ({ argv: line.split(' '), dynamic: [], opaque, via: [] });

/** A Provenance over `out`, with `> target` redirections written by the commands at `by`. */
function over(out: ShellCommand[], written: Array<[target: string, by: number[]]> = []): Provenance {
  const p = new Provenance({ out, work: new WorkBudget({ used: 0 }, 1 << 20) });
  for (const [target, by] of written) {
    const redir = (firstCommand(`x > ${target}`) as SimpleCommand).redirs[0]!;
    p.written.push({ target: redir.target!, by: by.map((i) => out[i]!) });
  }
  return p;
}

describe('writersOf: the commands that wrote or named a script', () => {
  it.each<[string, string[], Array<[string, number[]]>, string, string[] | null]>([
    ['named by an argument', ['curl -o x.sh https://h/a', 'ls'], [], 'x.sh', ['curl -o x.sh https://h/a']],
    ['./x.sh and x.sh are one path', ['cp a ./x.sh'], [], 'x.sh', ['cp a ./x.sh']],
    ['a URL whose last segment is the name', ['wget https://h/d/install.sh?v=1'], [], 'install.sh', ['wget https://h/d/install.sh?v=1']],
    ['not a URL for a path with a directory', ['wget https://h/d/install.sh'], [], 'd/install.sh', null],
    ['written by a redirection', ['curl https://h/a'], [['x.sh', [0]]], 'x.sh', ['curl https://h/a']],
    ['the program word names nothing', ['x.sh a'], [], 'x.sh', null],
    ['an opaque command is no producer (named, none kept)', ['bash x.sh'], [], 'x.sh', []],
    ['nothing named it', ['git status'], [], 'x.sh', null],
    ['in their order on the line, each once', ['a x.sh', 'b https://h/x.sh', 'c x.sh https://h/x.sh'], [], 'x.sh', ['a x.sh', 'b https://h/x.sh', 'c x.sh https://h/x.sh']],
  ])('%s', (_what, lines, written, path, expected) => {
    const out = lines.map((l, i) => cmd(l, _what.startsWith('an opaque') && i === 0));
    const by = over(out, written).writersOf(path);
    expect(by === null ? null : by.map((c) => c.argv.join(' '))).toEqual(expected);
  });

  it('with the pipeline stages that fed the writer (`curl … | tee x.sh`)', () => {
    const out = [cmd('curl https://h/a'), cmd('tee x.sh')];
    const p = over(out);
    p.fed(0, 1);
    expect(p.writersOf('x.sh')?.map((c) => c.argv[0])).toEqual(['tee', 'curl']);
  });

  it('sees commands reported after its index was first made', () => {
    const out = [cmd('ls')];
    const p = over(out);
    expect(p.writersOf('x.sh')).toBeNull();
    out.push(cmd('curl -o x.sh u'));
    expect(p.writersOf('x.sh')?.length).toBe(1);
  });

  it(`keeps at most ${MAX_SOURCES}`, () => {
    const out = Array.from({ length: MAX_SOURCES + 5 }, (_, i) => cmd(`c${i} x.sh`));
    expect(over(out).writersOf('x.sh')?.length).toBe(MAX_SOURCES);
  });
});

describe('substitutions and what they produced', () => {
  it('substituted, wordProducers, subSources, textSources', () => {
    const out: ShellCommand[] = [];
    const p = over(out);
    const c = firstCommand('x <<< "$(curl u)"') as SimpleCommand;
    const word = c.redirs[0]!.target!;
    const part = word.parts.find((q) => q.type === 'dyn');
    const body = part?.type === 'dyn' ? part.subs[0]!.body : undefined;
    expect(body).toBeDefined();
    p.substituted(body!, 0);
    expect(p.subOut).toBeNull();
    out.push(cmd('curl u'));
    p.substituted(body!, 0);
    expect(p.wordProducers(word).map((x) => x.argv.join(' '))).toEqual(['curl u']);
    expect(p.subSources(body!)).toEqual([{ argv: ['curl', 'u'], dynamic: [], how: 'substitution' }]);
    expect(p.textSources({ value: '$(curl u)', dynamic: true, glob: false, start: 0, cmdSub: body! })).toEqual([{ argv: ['curl', 'u'], dynamic: [], how: 'substitution' }]);
  });

  it('wroteBy: the redirections written from an index on, by the commands from a mark on', () => {
    const out = [cmd('ls')];
    const p = over(out, [['a.sh', []]]);
    out.push(cmd('curl u'));
    p.wroteBy(0, 1);
    expect(p.written[0]!.by.map((c) => c.argv[0])).toEqual(['curl']);
    p.wroteBy(1, 0);
    expect(p.written[0]!.by.map((c) => c.argv[0])).toEqual(['curl']);
  });

  it('producers: the earlier stages, scanned on as the pipeline grows', () => {
    const out = [cmd('a'), cmd('b', true), cmd('c')];
    const prod = over(out).producers(0);
    expect(prod.before(1).map((c) => c.argv[0])).toEqual(['a']);
    expect(prod.before(3).map((c) => c.argv[0])).toEqual(['a', 'c']);
  });
});

describe('helpers', () => {
  it.each<[string, string]>([
    ['./x.sh', 'x.sh'],
    ['././x.sh', 'x.sh'],
    ['a//b', 'a/b'],
    ['d/.', 'd'],
    ['/abs/x', '/abs/x'],
  ])('samePath(%j) = %j', (p, expected) => {
    expect(samePath(p)).toBe(expected);
  });

  it.each<[string, string | null]>([
    ['https://h/a/install.sh?x=1', 'install.sh'],
    ['https://h/install.sh#frag', 'install.sh'],
    ['https://h/', null],
    ['https://h', null],
    ['x.sh', null],
  ])('urlName(%j) = %j', (u, expected) => {
    expect(urlName(u)).toBe(expected);
  });

  it('sourcesOf keeps commands whose program is known', () => {
    expect(sourcesOf([cmd('curl u'), cmd('$X', true), { argv: [], dynamic: [], opaque: false, via: [] }], 'pipe')).toEqual([{ argv: ['curl', 'u'], dynamic: [], how: 'pipe' }]);
  });

  it('dedupeSources drops the same argv the same way', () => {
    const argv = ['curl', 'u'];
    const a: ScriptSource = { argv, dynamic: [], how: 'pipe' };
    expect(dedupeSources([a, { ...a }, { ...a, how: 'file' }])).toEqual([a, { ...a, how: 'file' }]);
  });

  it.each<[string, ShellCommand[], ScriptSource[] | undefined]>([
    ['no producer: unchanged', [], undefined],
    ['producers recorded', [cmd('curl u')], [{ argv: ['curl', 'u'], dynamic: [], how: 'pipe' }]],
  ])('withSources: %s', (_what, cmds, from) => {
    const s = { kind: 'unknown' as const, label: '| %' };
    const got = withSources(s, cmds, 'pipe');
    expect(got.from).toEqual(from);
    if (from === undefined) expect(got).toBe(s);
  });

  it.each<['runtime' | 'unreadable', number[]]>([
    ['runtime', [0]],
    ['unreadable', []],
  ])('unseenCommand(%s)', (why, dynamic) => {
    expect(unseenCommand('x.sh', ['bash x.sh'], why)).toEqual({ argv: ['x.sh'], dynamic, opaque: true, via: ['bash x.sh'], unseen: why });
  });
});
