/**
 * git's command-line grammar, as data. Global options come from git.c (`handle_options`); the
 * subcommands' options from their parse-options tables. Only what matters for finding the
 * subcommand, the options and the positionals is described; unknown options are flags.
 */
import type { ProgramGrammar } from './types.ts';

/**
 * git's own commands (`git help -a`): an alias never shadows them. Commands of packages that
 * may be missing (`gui`, `citool`, `instaweb`, `send-email`) are left out: where they are not
 * installed, git runs an alias of that name.
 */
const COMMANDS = (
  'add am annotate apply archive bisect blame branch bugreport bundle cat-file check-attr check-ignore ' +
  'check-mailmap check-ref-format checkout checkout-index cherry cherry-pick clean clone column ' +
  'commit commit-graph commit-tree config count-objects credential describe diagnose diff diff-files ' +
  'diff-index diff-tree difftool fast-export fast-import fetch fetch-pack filter-branch fmt-merge-msg ' +
  'for-each-ref for-each-repo format-patch fsck gc get-tar-commit-id grep hash-object help hook ' +
  'index-pack init init-db interpret-trailers log ls-files ls-remote ls-tree mailinfo mailsplit ' +
  'maintenance merge merge-base merge-file merge-index merge-tree mergetool mktag mktree ' +
  'multi-pack-index mv name-rev notes pack-objects pack-redundant pack-refs patch-id prune ' +
  'prune-packed pull push range-diff read-tree rebase receive-pack reflog remote repack replace ' +
  'request-pull rerere reset restore rev-list rev-parse revert rm send-pack shortlog show ' +
  'show-branch show-index show-ref sparse-checkout stage stash status stripspace submodule switch ' +
  'symbolic-ref tag unpack-file unpack-objects update-index update-ref update-server-info ' +
  'upload-archive upload-pack var verify-commit verify-pack verify-tag version whatchanged worktree ' +
  'write-tree'
).split(' ');

export const git: ProgramGrammar = {
  nested: true,
  dashed: true,
  // A refspec is `[+]SRC[:DST]` (git-push(1)): a leading `+` forces the update; an empty source
  // (`:DST`, after the optional `+`) deletes DST. `:` alone is the "matching" refspec.
  role_kinds: {
    refspec: {
      marks: {
        force: { prefix: '+' },
        delete: { strip: '+', prefix: ':', min_length: 2 },
      },
    },
  },
  // Variables whose value git runs (through a shell, or as the program it starts), as the
  // `-c` settings below: `GIT_SSH_COMMAND='…' git fetch` runs it (git(1), "ENVIRONMENT VARIABLES").
  env_runs: {
    GIT_SSH_COMMAND: 'shell',
    GIT_SSH: 'shell',
    GIT_EDITOR: 'shell',
    GIT_SEQUENCE_EDITOR: 'shell',
    VISUAL: 'shell',
    EDITOR: 'shell',
    GIT_PAGER: 'shell',
    PAGER: 'shell',
    GIT_EXTERNAL_DIFF: 'shell',
    GIT_ASKPASS: 'shell',
    SSH_ASKPASS: 'shell',
    GIT_PROXY_COMMAND: 'shell',
  },
  // `git -c NAME=VALUE`: settings whose value git runs through a shell.
  runs: {
    shell_settings: {
      '-c': ['core.sshCommand', 'core.pager', 'core.editor', 'core.askPass', 'core.fsmonitor', 'sequence.editor', 'diff.external', 'gpg.program', 'credential.helper', 'pager.'],
    },
  },
  abbreviations: true,
  inline_aliases: {
    option: '-c',
    prefix: 'alias.',
    env_option: '--config-env',
    env_key: 'GIT_CONFIG_KEY_',
    env_value: 'GIT_CONFIG_VALUE_',
    env_parameters: 'GIT_CONFIG_PARAMETERS',
    dir_option: '-C',
    include_keys: ['include.path', 'includeIf.*.path'],
    option_vars: { '--git-dir': 'GIT_DIR' },
    config_vars: ['GIT_DIR', 'GIT_COMMON_DIR', 'GIT_CONFIG_GLOBAL', 'GIT_CONFIG_SYSTEM', 'HOME', 'XDG_CONFIG_HOME'],
    // builtin/config.c: the old option-style modes and the subcommands of git 2.46+.
    config_command: 'config',
    config_value_options: ['-f', '--file', '--blob', '--type', '--default', '--comment', '--value'],
    config_read_only: [
      '--get', '--get-all', '--get-regexp', '--get-urlmatch', '--get-color', '--get-colorbool', '-l', '--list',
      '--unset', '--unset-all', '--remove-section', '-e', '--edit',
      'get', 'list', 'unset', 'remove-section', 'edit',
    ],
    config_rename: ['--rename-section', 'rename-section'],
  },
  commands: COMMANDS,
  value_options: [
    '-C',
    '-c',
    '--git-dir',
    '--work-tree',
    '--namespace',
    '--super-prefix',
    '--config-env',
    '--exec-path',
    '--attr-source',
    '--list-cmds',
  ],
  subcommands: {
    push: {
      // Every operand is read as a refspec, the repository too: with --repo all of them are
      // refspecs, and a repository never starts with + or :.
      roles: { operands: 'refspec' },
      value_options: ['-o', '--push-option', '--repo', '--receive-pack', '--exec', '--recurse-submodules'],
      long_options: [
        '--all', '--branches', '--prune', '--mirror', '--dry-run', '--porcelain', '--delete', '--tags',
        '--follow-tags', '--signed', '--no-signed', '--atomic', '--no-atomic', '--force-with-lease',
        '--no-force-with-lease', '--force', '--force-if-includes', '--no-force-if-includes',
        '--set-upstream', '--thin', '--no-thin', '--quiet', '--verbose', '--progress', '--no-progress',
        '--no-recurse-submodules', '--verify', '--no-verify', '--ipv4', '--ipv6',
      ],
      synonyms: {
        '-f': '--force',
        '-d': '--delete',
        '-u': '--set-upstream',
        '-n': '--dry-run',
        '-q': '--quiet',
        '-v': '--verbose',
        '-o': '--push-option',
        '-4': '--ipv4',
        '-6': '--ipv6',
      },
    },
    commit: {
      value_options: [
        '-m', '--message', '-F', '--file', '-C', '--reuse-message', '-c', '--reedit-message', '--fixup',
        '--squash', '--author', '--date', '-t', '--template', '--cleanup', '--trailer',
        '--pathspec-from-file',
      ],
      synonyms: { '-a': '--all', '-m': '--message', '-F': '--file', '-n': '--no-verify', '-q': '--quiet' },
    },
    'commit-tree': { value_options: ['-p', '-m', '-F'] },
    reset: {
      value_options: ['--pathspec-from-file'],
      long_options: [
        '--soft', '--mixed', '--hard', '--merge', '--keep', '--quiet', '--no-quiet', '--patch',
        '--intent-to-add', '--recurse-submodules', '--no-recurse-submodules', '--pathspec-file-nul',
        '--refresh', '--no-refresh',
      ],
      synonyms: { '-q': '--quiet', '-p': '--patch', '-N': '--intent-to-add' },
    },
    merge: { value_options: ['-m', '-F', '--file', '-s', '--strategy', '-X', '--strategy-option', '--into-name'] },
    rebase: {
      value_options: ['--onto', '-s', '--strategy', '-X', '--strategy-option', '-x', '--exec', '-C'],
      synonyms: { '-x': '--exec' },
      runs: { shell_options: ['--exec', '-x'] },
    },
    // `git filter-branch --tree-filter CMD …`: every filter is shell text, run for each commit.
    'filter-branch': {
      value_options: ['--env-filter', '--tree-filter', '--index-filter', '--parent-filter', '--msg-filter', '--commit-filter', '--tag-name-filter', '--subdirectory-filter', '-d', '--original', '--state-branch'],
      long_options: ['--prune-empty', '--setup', '--force'],
      runs: { shell_options: ['--env-filter', '--tree-filter', '--index-filter', '--parent-filter', '--msg-filter', '--commit-filter', '--tag-name-filter'] },
    },
    submodule: {
      nested: true,
      value_options: ['--prefix'],
      subcommands: {
        // `git submodule foreach [--recursive] COMMAND…`: the words, joined, are run by a shell.
        foreach: { options_first: true, runs: { shell_operands: true } },
      },
    },
    bisect: {
      nested: true,
      subcommands: {
        // `git bisect run CMD…`: run through a shell; read as shell text (the safe side).
        run: { options_first: true, runs: { shell_operands: true } },
      },
    },
    add: { value_options: ['--chmod', '--pathspec-from-file'] },
    fetch: {
      value_options: ['--depth', '--deepen', '--shallow-since', '--shallow-exclude', '-j', '--jobs', '--upload-pack', '-o', '--server-option', '--negotiation-tip', '--refmap', '--recurse-submodules-default'],
      synonyms: { '-p': '--prune', '-P': '--prune-tags' },
    },
    log: { value_options: ['-n', '--max-count', '--skip', '--since', '--until', '--author', '--committer', '--grep', '--format', '--pretty', '-L', '--decorate-refs', '--decorate-refs-exclude'] },
    branch: {
      value_options: ['-t', '--track', '-u', '--set-upstream-to', '--contains', '--no-contains', '--merged', '--no-merged', '--points-at', '--format', '--sort'],
      long_options: ['--delete', '--force', '--move', '--copy', '--list', '--all', '--remotes', '--verbose', '--quiet', '--show-current', '--create-reflog', '--edit-description'],
      synonyms: { '-d': '--delete', '-f': '--force', '-m': '--move', '-c': '--copy', '-l': '--list', '-a': '--all', '-r': '--remotes' },
    },
    // Working-tree commands (agent-worktree): the options that take a value, so that a value is
    // not read as a path or a branch, and the short and long spellings of the discarding options.
    checkout: {
      value_options: ['-b', '-B', '--orphan', '--conflict', '--pathspec-from-file'],
      long_options: ['--force', '--quiet', '--progress', '--no-progress', '--ours', '--theirs', '--merge', '--detach', '--patch', '--overlay', '--no-overlay', '--ignore-skip-worktree-bits', '--ignore-other-worktrees', '--no-track', '--guess', '--no-guess', '--overwrite-ignore', '--no-overwrite-ignore', '--pathspec-file-nul'],
      synonyms: { '-f': '--force', '-q': '--quiet', '-m': '--merge', '-p': '--patch', '-2': '--ours', '-3': '--theirs' },
    },
    restore: {
      value_options: ['-s', '--source', '--conflict', '--pathspec-from-file'],
      long_options: ['--staged', '--worktree', '--patch', '--quiet', '--progress', '--no-progress', '--ours', '--theirs', '--merge', '--ignore-unmerged', '--ignore-skip-worktree-bits', '--overlay', '--no-overlay', '--pathspec-file-nul'],
      synonyms: { '-S': '--staged', '-W': '--worktree', '-p': '--patch', '-q': '--quiet', '-m': '--merge', '-2': '--ours', '-3': '--theirs', '-s': '--source' },
    },
    clean: {
      value_options: ['-e', '--exclude'],
      long_options: ['--force', '--dry-run', '--interactive', '--quiet'],
      synonyms: { '-f': '--force', '-n': '--dry-run', '-i': '--interactive', '-q': '--quiet' },
    },
    switch: {
      value_options: ['-c', '--create', '-C', '--force-create', '--orphan', '--conflict'],
      long_options: ['--discard-changes', '--force', '--merge', '--detach', '--guess', '--no-guess', '--quiet', '--progress', '--no-progress', '--ignore-other-worktrees', '--no-track'],
      // `-f` and `--force` are other names of `--discard-changes`.
      synonyms: { '-f': '--discard-changes', '--force': '--discard-changes', '-m': '--merge', '-d': '--detach', '-q': '--quiet' },
    },
    worktree: {
      nested: true,
      subcommands: {
        add: { value_options: ['-b', '-B', '--reason', '--orphan'] },
        remove: { long_options: ['--force'], synonyms: { '-f': '--force' } },
        move: { long_options: ['--force'], synonyms: { '-f': '--force' } },
        prune: { value_options: ['--expire'] },
        lock: { value_options: ['--reason'] },
      },
    },
    stash: {
      nested: true,
      subcommands: {
        push: { value_options: ['-m', '--message', '--pathspec-from-file'] },
        save: {},
        drop: {},
        clear: {},
        pop: {},
        apply: {},
        list: {},
        show: {},
        branch: {},
        create: {},
        store: { value_options: ['-m', '--message'] },
      },
    },
    remote: {
      nested: true,
      aliases: { rm: 'remove' },
      subcommands: {
        add: { value_options: ['-t', '-m'] },
        remove: {},
        rename: {},
        'set-url': {},
        'set-head': {},
        'set-branches': {},
        'get-url': {},
        show: {},
        prune: {},
        update: {},
      },
    },
  },
};
