/**
 * The generated blocks: every harness list in the docs and scripts/setup.sh's harness data,
 * rendered from the records. `node scripts/gen-docs.mjs` rewrites each marked block in place;
 * src/harnesses/generated.test.ts fails when one is stale. Pure text; never on the hook path.
 *
 * A block is `<!-- generated: NAME -->…<!-- end -->` in Markdown (inline or over lines) and
 * `# generated: NAME` … `# end generated` in Bash.
 */
import { HARNESSES, HARNESS_LIST, type HarnessName } from './index.ts';
import type { HarnessHome, HarnessRecord, Scope, ScopeFile, SystemPlatform } from './record.ts';

const rec = (name: HarnessName): HarnessRecord => HARNESSES[name];
const code = (s: string): string => `\`${s}\``;

/** `a, b, c or d`, each in backticks. */
function names(last: string): string {
  const all = HARNESS_LIST.map(code);
  return `${all.slice(0, -1).join(', ')} ${last} ${all[all.length - 1]}`;
}

/** `~/.codex`, `$CODEX_HOME`-style description of a harness's folder. */
function homeText(home: HarnessHome): string {
  const dflt = `~/${home.path.join('/')}`;
  const v = home.variable;
  if (v === undefined) return `\`${dflt}\``;
  const abs = v.absoluteOnly ? ' (absolute only)' : '';
  switch (v.is) {
    case 'folder':
      return `\`$${v.name}\`${abs}, else \`${dflt}\``;
    case 'home':
      return `\`$${v.name}/${home.path.join('/')}\`${abs}, else \`${dflt}\``;
    case 'parent':
      return `\`$${v.name}/${home.path[home.path.length - 1]}\`${abs}, else \`${dflt}\``;
  }
}

function scopeText(name: HarnessName, scope: Scope): string {
  const f = (rec(name).scopes as Partial<Record<Scope, ScopeFile>>)[scope];
  if (f === undefined) return '—';
  if (f.base === 'system') return 'the system-level file';
  return `\`<${f.base === 'project' ? 'project' : 'home'}>/${f.path.join('/')}\``;
}

const PLATFORM_NAME: Record<SystemPlatform, string> = { linux: 'Linux', darwin: 'macOS', win32: 'Windows' };

function systemText(r: HarnessRecord): string {
  if (r.system === null) return 'none found';
  const files = (Object.entries(r.system.files) as [SystemPlatform, string][]).map(([p, f]) => `\`${f}\` (${PLATFORM_NAME[p]})`);
  const moved = r.system.variable !== undefined ? `; \`$${r.system.variable}\` moves it` : '';
  const locked = r.system.lockedDown ? '; wired by the locked-down install (`setup.sh install --system`)' : '; not wired by the locked-down install';
  return `${files.join(', ')}${moved}: ${r.system.hooks}${locked}`;
}

function askText(r: HarnessRecord): string {
  return r.ask.map((a) => `${a.mode}: **${a.becomes}**${a.note !== undefined ? ` (${a.note})` : ''}`).join('; ');
}

const cell = (s: string): string => s.replace(/\|/g, '\\|');

/** Markdown blocks by name. Inline ones have no line breaks. */
export const MARKDOWN_BLOCKS: Readonly<Record<string, () => string>> = {
  /** `cursor`, `claude-code`, … or `opencode` */
  'harness-names': () => names('or'),
  /** cursor|claude-code|…|all */
  'harness-choices': () => code(`--harness ${[...HARNESS_LIST, 'all'].join('|')}`),
  /** each harness's folder, for "every harness whose directory exists" */
  'harness-homes': () => HARNESS_LIST.map((n) => homeText(rec(n).home)).join('; '),
  /** docs/paths.md: the harness config files Buckler edits */
  'harness-config-table': () => {
    const scopes: Scope[] = ['user', 'project', 'local', 'managed'];
    const rows = HARNESS_LIST.map((n) => `| \`${n}\` | ${homeText(rec(n).home)} | ${scopes.map((s) => scopeText(n, s)).join(' | ')} |`);
    return ['', '', '| harness | home directory (its existence = "installed") | user scope | project scope | local scope | managed scope |', '| --- | --- | --- | --- | --- | --- |', ...rows, '', ''].join('\n');
  },
  /** docs/adapters/README.md: system-level settings and what an ask becomes */
  'harness-system-table': () => {
    const rows = HARNESS_LIST.map((n) => {
      const r = rec(n);
      return `| ${r.title} (\`${n}\`) | ${cell(r.readFrom)} | ${cell(systemText(r))} | ${cell(askText(r))} |`;
    });
    return ['', '', '| harness | facts read from | system-level or managed settings file | what an ask becomes, by mode |', '| --- | --- | --- | --- |', ...rows, '', ''].join('\n');
  },
};

/** A word for Bash (single-quoted unless plain). */
function sh(s: string): string {
  return /^[A-Za-z0-9_./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** scripts/setup.sh: the harness list and, per harness, how its folder and user file resolve. */
export const BASH_BLOCKS: Readonly<Record<string, () => string>> = {
  harnesses: () => {
    const lines = [
      '# Every harness setup.sh can wire, in the order it wires them (src/harnesses/index.ts).',
      `BK_HARNESSES=(${HARNESS_LIST.join(' ')})`,
      '',
      "# bk_harness_spec NAME: the harness's record (src/harnesses/NAME.ts), for harnessHomeDir and",
      '# harnessConfigFile(…, "user", …): BK_HS_PATH (its folder below the home directory), BK_HS_VAR,',
      '# BK_HS_IS and BK_HS_ABS (the variable that moves it, what its value stands for, absolute only),',
      '# BK_HS_USER (the user-scope file below its folder). Returns 1 for an unknown name.',
      'bk_harness_spec() {',
      '  case $1 in',
    ];
    for (const n of HARNESS_LIST) {
      const r = rec(n);
      const user = r.scopes.user as ScopeFile | undefined;
      if (user === undefined || user.base !== 'harness_home') throw new Error(`${n}: setup.sh wires the user scope, a file in the harness's folder`);
      const v = r.home.variable;
      lines.push(
        `    ${n})`,
        `      BK_HS_PATH=(${r.home.path.map(sh).join(' ')})`,
        `      BK_HS_VAR=${v?.name ?? ''} BK_HS_IS=${v?.is ?? ''} BK_HS_ABS=${v?.absoluteOnly ? 1 : 0}`,
        `      BK_HS_USER=(${user.path.map(sh).join(' ')})`,
        '      ;;',
      );
    }
    lines.push('    *) return 1 ;;', '  esac', '}');
    return lines.join('\n');
  },
};

export interface BlockSyntax {
  open: (name: string) => string;
  close: string;
}
export const MARKDOWN: BlockSyntax = { open: (n) => `<!-- generated: ${n} -->`, close: '<!-- end -->' };
export const BASH: BlockSyntax = { open: (n) => `# generated: ${n} (node scripts/gen-docs.mjs; do not edit)`, close: '# end generated' };

/**
 * The text with every marked block rewritten; throws on an unknown block name or an unclosed
 * block. A Markdown block over lines keeps its line breaks (the rendered text starts and ends
 * with one).
 */
export function rewriteBlocks(text: string, blocks: Readonly<Record<string, () => string>>, syntax: BlockSyntax): string {
  const openRe = syntax === BASH ? /# generated: ([\w-]+)[^\n]*/g : /<!-- generated: ([\w-]+) -->/g;
  let out = '';
  let at = 0;
  for (let m = openRe.exec(text); m !== null; m = openRe.exec(text)) {
    const name = m[1]!;
    const render = blocks[name];
    if (render === undefined) throw new Error(`unknown generated block '${name}'`);
    const start = m.index + m[0].length;
    const end = text.indexOf(syntax.close, start);
    if (end < 0) throw new Error(`generated block '${name}' is not closed with ${syntax.close}`);
    const body = syntax === BASH ? `\n${render()}\n` : render();
    out += text.slice(at, m.index) + syntax.open(name) + body + syntax.close;
    at = end + syntax.close.length;
    openRe.lastIndex = at;
  }
  return out + text.slice(at);
}

/** Every file with generated blocks, relative to the repository root, and how it marks them. */
export const GENERATED_FILES: readonly { file: string; blocks: Readonly<Record<string, () => string>>; syntax: BlockSyntax }[] = [
  { file: 'scripts/setup.sh', blocks: BASH_BLOCKS, syntax: BASH },
  { file: 'docs/cli.md', blocks: MARKDOWN_BLOCKS, syntax: MARKDOWN },
  { file: 'docs/explain.md', blocks: MARKDOWN_BLOCKS, syntax: MARKDOWN },
  { file: 'docs/testing-policy.md', blocks: MARKDOWN_BLOCKS, syntax: MARKDOWN },
  { file: 'docs/install.md', blocks: MARKDOWN_BLOCKS, syntax: MARKDOWN },
  { file: 'docs/paths.md', blocks: MARKDOWN_BLOCKS, syntax: MARKDOWN },
  { file: 'docs/adapters/README.md', blocks: MARKDOWN_BLOCKS, syntax: MARKDOWN },
];
