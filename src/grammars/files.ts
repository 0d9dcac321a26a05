/**
 * Programs whose file operands matter (docs/shell-analysis.md, "Files"): which words name files
 * and how each is touched, as data for the reader. Only option tables needed to find the
 * operands are given (an option that takes a value must be listed, or its value would be read
 * as a file); these programs run nothing, so unknown options are simply flags.
 */
import type { Access, FilesSpec, ProgramGrammar } from './types.ts';

const reads = (value_options: string[] = [], extra: Partial<ProgramGrammar> = {}): ProgramGrammar => ({
  value_options,
  ...extra,
  files: { operands: 'read', ...(extra.files ?? {}) },
});

/** `PROG [OPTIONS] SOURCE… DEST` (cp, mv, install, ln): `-t DIR` names the destination instead. */
const copying = (sources: Access, value_options: string[], extra: Partial<FilesSpec> = {}, when: FilesSpec['when'] = {}): ProgramGrammar => ({
  value_options: [...value_options, '-t', '--target-directory', '-S', '--suffix'],
  optional_value: ['--backup', '--reflink', '--sparse', '--preserve', '--no-preserve'],
  files: {
    operands: sources,
    last: 'write',
    options: { '-t': 'write', '--target-directory': 'write' },
    ...extra,
    when: { '-t': { last: 'none' }, '--target-directory': { last: 'none' }, ...when },
  },
});

/** What a recursive copy (`cp -r`, `cp -a`) writes: the destination as a whole. */
const WHOLE = { whole: true } as const;
/** `cp -l` and `cp -s` make links to the sources instead of copies. */
const CP_LINKS = { '-l': { links: 'hard' as const }, '--link': { links: 'hard' as const }, '-s': { links: 'symbolic' as const }, '--symbolic-link': { links: 'symbolic' as const } };

const GREP_VALUES = ['-e', '-f', '-A', '-B', '-C', '-m', '-d', '-D', '--regexp', '--file', '--after-context', '--before-context', '--context', '--max-count', '--label', '--include', '--exclude', '--exclude-dir', '--color', '--colour'];
const pattern: FilesSpec = { operands: 'read', skip: 1, options: { '-f': 'read', '--file': 'read' }, when: { '-e': { skip: 0 }, '-f': { skip: 0 }, '--regexp': { skip: 0 }, '--file': { skip: 0 } } };
const RECURSIVE = { recursive: true } as const;
const metadata = (skip: number): ProgramGrammar => ({
  value_options: ['--reference', '--from'],
  files: { operands: 'metadata', skip, options: { '--reference': 'read' }, when: { '--reference': { skip: 0 }, '-R': RECURSIVE, '--recursive': RECURSIVE } },
});

/** Partitioning and file-system tools: the device operands are written (`-l` only lists). */
const device = (list: string[], value_options: string[] = []): ProgramGrammar => ({
  value_options,
  files: { operands: 'write', when: Object.fromEntries(list.map((o) => [o, { operands: 'read' as const }])) },
});

const tar: ProgramGrammar = {
  value_options: [
    '-f', '--file', '-C', '--directory', '-T', '--files-from', '-X', '--exclude-from', '--exclude', '-b', '--blocking-factor', '--transform', '--owner', '--group', '--mode', '--mtime',
    '--to-command', '-I', '--use-compress-program', '-F', '--info-script', '--new-volume-script', '--rsh-command', '--checkpoint-action',
  ],
  // Commands GNU tar runs (tar(1), 1.35): through a shell, or as a program with arguments (read as shell text, the safe side).
  runs: {
    shell_options: ['--to-command', '-I', '--use-compress-program', '-F', '--info-script', '--new-volume-script', '--rsh-command'],
    shell_settings: { '--checkpoint-action': ['exec'] },
  },
  synonyms: { '-f': '--file', '-c': '--create', '-x': '--extract', '-t': '--list', '-r': '--append', '-u': '--update' },
  files: {
    operands: 'read',
    options: { '--file': 'read', '-T': 'read', '--files-from': 'read', '-X': 'read', '--exclude-from': 'read' },
    when: {
      '--create': { operands: 'read', options: { '--file': 'write', '-T': 'read', '--files-from': 'read' } },
      '--append': { operands: 'read', options: { '--file': 'write' } },
      '--update': { operands: 'read', options: { '--file': 'write' } },
      // Unpacking into `-C DIR` writes DIR as a whole: what the archive holds is not known here.
      '--extract': { operands: 'write', whole: true, options: { '--file': 'read', '-C': 'write', '--directory': 'write' } },
    },
  },
};

const curl: ProgramGrammar = {
  value_options: [
    '-d', '--data', '--data-binary', '--data-raw', '--data-ascii', '--data-urlencode', '--json', '-F', '--form', '-T', '--upload-file',
    '-o', '--output', '-K', '--config', '-H', '--header', '-X', '--request', '-u', '--user', '-A', '--user-agent', '-e', '--referer',
    '-b', '--cookie', '-c', '--cookie-jar', '-D', '--dump-header', '--cacert', '--cert', '--key', '-x', '--proxy', '-m', '--max-time',
    '--connect-timeout', '-w', '--write-out', '-r', '--range', '--retry', '--url', '-E', '-z', '--time-cond', '--resolve',
  ],
  files: {
    options: {
      '-T': 'read', '--upload-file': 'read', '-o': 'write', '--output': 'write', '-K': 'read', '--config': 'read',
      '-c': 'write', '--cookie-jar': 'write', '-D': 'write', '--dump-header': 'write',
    },
    at_options: { '-d': 'read', '--data': 'read', '--data-binary': 'read', '--data-ascii': 'read', '--json': 'read', '-F': 'read', '--form': 'read', '--data-urlencode': 'read' },
  },
};

const HEAD_VALUES = ['-n', '-c', '--lines', '--bytes'];

/**
 * awk: its program (the first operand, or `-e`/`--source` in gawk) is code whose `system(…)`,
 * `"CMD" | getline` and `print … | "CMD"` run shell commands (interpreters.ts); `-f PROG` names
 * a program file instead.
 */
const awk: ProgramGrammar = {
  value_options: ['-f', '-v', '-F', '-e', '-i', '-l', '--file', '--assign', '--field-separator', '--source', '--include', '--load'],
  files: { operands: 'read', skip: 1, options: { '-f': 'read', '--file': 'read' }, when: { '-f': { skip: 0 }, '--file': { skip: 0 }, '-e': { skip: 0 }, '--source': { skip: 0 } } },
  runs: { code_operand: true, code_options: ['-e', '--source'], code_file_options: ['-f', '--file'], language: 'awk' },
};

export const FILE_PROGRAMS: Record<string, ProgramGrammar> = {
  rm: { files: { operands: 'delete', when: { '-r': RECURSIVE, '-R': RECURSIVE, '--recursive': RECURSIVE } } },
  rmdir: { files: { operands: 'delete' } },
  unlink: { files: { operands: 'delete' } },
  shred: { value_options: ['-n', '-s', '--iterations', '--size', '--random-source'], files: { operands: 'write', when: { '-u': { operands: 'delete' }, '--remove': { operands: 'delete' } } } },
  // The destination may be a folder the sources go into by name (`into`); a recursive copy,
  // a move and a link write what they name as a whole, with everything inside it.
  cp: copying('read', [], { into: true }, { '-r': WHOLE, '-R': WHOLE, '--recursive': WHOLE, '-a': WHOLE, '--archive': WHOLE, ...CP_LINKS }),
  mv: copying('delete', [], { into: true, whole: true }),
  install: copying('read', ['-m', '--mode', '-o', '--owner', '-g', '--group'], { into: true }),
  ln: copying('read', [], { links: 'hard' }, { '-s': { links: 'symbolic' }, '--symbolic': { links: 'symbolic' } }),
  tee: { files: { operands: 'write' } },
  truncate: { value_options: ['-s', '--size', '-r', '--reference'], files: { operands: 'write', options: { '-r': 'read', '--reference': 'read' } } },
  touch: { value_options: ['-d', '--date', '-t', '-r', '--reference'], files: { operands: 'metadata', options: { '-r': 'read', '--reference': 'read' } } },
  dd: { files: { assignments: { if: 'read', of: 'write' } } },
  sed: {
    value_options: ['-e', '-f', '-l', '--expression', '--file', '--line-length'],
    optional_value: ['-i', '--in-place'],
    files: { operands: 'read', skip: 1, options: { '-f': 'read', '--file': 'read' }, when: { '-e': { skip: 0 }, '--expression': { skip: 0 }, '-f': { skip: 0 }, '--file': { skip: 0 }, '-i': { operands: 'write' }, '--in-place': { operands: 'write' } } },
  },
  chmod: metadata(1),
  chown: metadata(1),
  chgrp: metadata(1),
  cat: reads(),
  tac: reads(['-s', '--separator']),
  less: reads(['-b', '-h', '-j', '-k', '-o', '-O', '-p', '-P', '-t', '-T', '-x', '-y', '-z', '--pattern']),
  more: reads(['-n']),
  head: reads(HEAD_VALUES, { numeric: true }),
  tail: reads([...HEAD_VALUES, '-s', '--sleep-interval', '--pid', '--max-unchanged-stats'], { numeric: true }),
  nl: reads(['-b', '-d', '-f', '-h', '-i', '-l', '-n', '-s', '-v', '-w']),
  od: reads(['-A', '-j', '-N', '-S', '-t', '-w']),
  xxd: reads(['-c', '-g', '-l', '-o', '-s', '-n'], { files: { operands: 'read', last: 'write' } }),
  hexdump: reads(['-e', '-f', '-n', '-s']),
  strings: reads(['-n', '-t', '-e', '--bytes', '--radix', '--encoding']),
  base64: reads(['-w', '--wrap']),
  bat: reads(['-l', '--language', '-H', '--highlight-line', '--style', '--theme', '-r', '--line-range', '--paging', '--color']),
  grep: { value_options: GREP_VALUES, files: pattern },
  egrep: { value_options: GREP_VALUES, files: pattern },
  fgrep: { value_options: GREP_VALUES, files: pattern },
  rg: { value_options: [...GREP_VALUES, '-g', '--glob', '-t', '--type', '-T', '--type-not', '-j', '--threads', '-M', '--max-columns', '-r', '--replace'], files: pattern },
  awk,
  gawk: awk,
  mawk: awk,
  nawk: awk,
  tar,
  zip: { value_options: ['-x', '-i', '-b', '-n', '-t', '-tt', '-P', '--password'], files: { operands: 'read', first: 'write' } },
  unzip: { value_options: ['-d', '-x', '-P'], files: { first: 'read', whole: true, options: { '-d': 'write' } } },
  scp: { value_options: ['-c', '-D', '-F', '-i', '-J', '-l', '-o', '-P', '-S', '-X'], files: { operands: 'read', last: 'write', options: { '-F': 'read' } } }, // -i: a key used, not read into the agent's context
  rsync: {
    // `-e CMD`: the remote shell rsync starts (a program and its arguments; read as shell text).
    runs: { shell_options: ['-e', '--rsh'] },
    value_options: ['-e', '--rsh', '--exclude', '--include', '--exclude-from', '--include-from', '--files-from', '-f', '--filter', '--chmod', '--chown', '-B', '--block-size', '--timeout', '--bwlimit', '--log-file', '--backup-dir', '--suffix', '-T', '--temp-dir', '--partial-dir', '--password-file', '--port', '--compare-dest', '--copy-dest', '--link-dest'],
    files: {
      operands: 'read',
      last: 'write',
      // A copy into or over a folder writes it as a whole; a file lands in it by its name.
      whole: true,
      into: true,
      // `--delete*`: what is in the target and not in the sources is deleted, all the way down.
      when: {
        '--remove-source-files': { operands: 'delete' },
        ...Object.fromEntries(['--delete', '--del', '--delete-before', '--delete-during', '--delete-delay', '--delete-after', '--delete-excluded'].map((o) => [o, { last: 'delete' as const, recursive: true, contents: true }])),
      },
    },
  },
  fdisk: device(['-l', '--list'], ['-b', '-c', '-C', '-H', '-S', '-u', '-L', '--color', '-t', '--type', '-w', '--wipe', '-W', '--wipe-partitions']),
  sfdisk: device(['-l', '--list', '-s', '--show-size', '-d', '--dump', '-J', '--json', '-V', '--verify'], ['-N', '--partno', '-X', '--label', '-w', '--wipe', '-W', '--wipe-partitions', '-O', '--backup-file']),
  parted: device(['-l', '--list'], ['-a', '--align']),
  wipefs: device(['-n', '--no-act'], ['-o', '--offset', '-t', '--types', '-b', '--backup']),
  curl,
  openssl: {
    single_dash_long: true,
    nested: true,
    inherit_options: true,
    value_options: ['-in', '-out', '-inkey', '-key', '-passin', '-passout', '-pass', '-cert', '-CAfile', '-config', '-keyout', '-signkey', '-subj', '-days', '-md', '-inform', '-outform', '-certfile'],
    files: { options: { '-in': 'read', '-inkey': 'read', '-key': 'read', '-cert': 'read', '-CAfile': 'read', '-config': 'read', '-signkey': 'read', '-certfile': 'read', '-out': 'write', '-keyout': 'write' } },
  },
};
