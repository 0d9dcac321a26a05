/**
 * The GitHub CLI's command-line grammar, as data. gh is a cobra/pflag program: options may stand
 * anywhere after the program (before or after the subcommand words), short options bundle
 * (`-XDELETE`, `-X=DELETE`), and every command group takes one more subcommand word.
 */
import type { CommandGrammar, ProgramGrammar } from './types.ts';

const group = (subcommands: Record<string, CommandGrammar> = {}, aliases?: Record<string, string>): CommandGrammar =>
  aliases ? { nested: true, subcommands, aliases } : { nested: true, subcommands };

const yes: CommandGrammar = { synonyms: { '-y': '--yes' } };

export const gh: ProgramGrammar = {
  nested: true,
  inherit_options: true,
  short_equals: true,
  value_options: ['-R', '--repo'],
  synonyms: { '-R': '--repo' },
  aliases: { cs: 'codespace', ext: 'extension', extensions: 'extension' },
  // `gh api -X METHOD`: gh sends the method as given, and the server reads it in any letter case.
  role_kinds: {
    http_method: { marks: { delete: { trim: true, ignore_case: true, equals: ['DELETE'] } } },
  },
  subcommands: {
    api: {
      roles: { '--method': 'http_method' },
      value_options: [
        '-X', '--method', '-H', '--header', '-f', '--raw-field', '-F', '--field', '--input', '-q', '--jq',
        '-t', '--template', '--cache', '-p', '--preview', '--hostname',
      ],
      synonyms: {
        '-X': '--method',
        '-H': '--header',
        '-f': '--raw-field',
        '-F': '--field',
        '-q': '--jq',
        '-t': '--template',
        '-p': '--preview',
        '-i': '--include',
      },
    },
    repo: group(
      {
        delete: yes,
        archive: yes,
        unarchive: yes,
        create: {
          value_options: ['-d', '--description', '-h', '--homepage', '-t', '--team', '-p', '--template', '-g', '--gitignore', '-l', '--license', '-s', '--source', '-r', '--remote'],
        },
        edit: { value_options: ['-d', '--description', '-h', '--homepage', '--default-branch', '--visibility', '--add-topic', '--remove-topic'] },
        clone: { value_options: ['-u', '--upstream-remote-name'] },
        fork: { value_options: ['--remote-name', '--fork-name', '--org'] },
        rename: yes,
        list: { value_options: ['-L', '--limit', '-l', '--language', '--topic', '--visibility', '-q', '--jq', '-t', '--template', '--json'] },
        view: { value_options: ['-b', '--branch', '-q', '--jq', '-t', '--template', '--json'] },
        sync: { value_options: ['-b', '--branch', '-s', '--source'] },
        'set-default': {},
        'deploy-key': group(),
        autolink: group(),
      },
      { ls: 'list' },
    ),
    release: group(
      {
        delete: { ...yes, long_options: ['--cleanup-tag'] },
        'delete-asset': yes,
        create: {
          value_options: ['-t', '--title', '-n', '--notes', '-F', '--notes-file', '--target', '--discussion-category', '--notes-start-tag', '--notes-from-tag'],
        },
        edit: { value_options: ['-t', '--title', '-n', '--notes', '-F', '--notes-file', '--target', '--discussion-category', '--tag'] },
        upload: {},
        download: { value_options: ['-p', '--pattern', '-D', '--dir', '-O', '--output', '-A', '--archive'] },
        list: { value_options: ['-L', '--limit', '-q', '--jq', '-t', '--template', '--json', '-O', '--order'] },
        view: { value_options: ['-q', '--jq', '-t', '--template', '--json'] },
      },
      { ls: 'list' },
    ),
    pr: group(
      {
        close: { value_options: ['-c', '--comment'], synonyms: { '-c': '--comment', '-d': '--delete-branch' } },
        merge: {
          value_options: ['-b', '--body', '-F', '--body-file', '-t', '--subject', '-A', '--author-email', '--match-head-commit'],
          synonyms: { '-d': '--delete-branch', '-m': '--merge', '-r': '--rebase', '-s': '--squash' },
        },
        create: {
          value_options: ['-a', '--assignee', '-B', '--base', '-b', '--body', '-F', '--body-file', '-H', '--head', '-l', '--label', '-m', '--milestone', '-p', '--project', '-r', '--reviewer', '-t', '--title', '-T', '--template'],
        },
        edit: { value_options: ['-B', '--base', '-b', '--body', '-F', '--body-file', '-t', '--title', '--add-assignee', '--remove-assignee', '--add-label', '--remove-label', '--add-reviewer', '--remove-reviewer', '-m', '--milestone'] },
        comment: { value_options: ['-b', '--body', '-F', '--body-file'] },
        review: { value_options: ['-b', '--body', '-F', '--body-file'] },
        checkout: { value_options: ['-b', '--branch'] },
        list: { value_options: ['-A', '--author', '-a', '--assignee', '-B', '--base', '-H', '--head', '-l', '--label', '-L', '--limit', '-S', '--search', '-s', '--state', '-q', '--jq', '-t', '--template', '--json'] },
        view: { value_options: ['-q', '--jq', '-t', '--template', '--json'] },
      },
      { co: 'checkout', ls: 'list' },
    ),
    issue: group({
      close: { value_options: ['-c', '--comment', '-r', '--reason'] },
      create: { value_options: ['-a', '--assignee', '-b', '--body', '-F', '--body-file', '-l', '--label', '-m', '--milestone', '-p', '--project', '-t', '--title', '-T', '--template'] },
      comment: { value_options: ['-b', '--body', '-F', '--body-file'] },
      list: { value_options: ['-A', '--author', '-a', '--assignee', '-l', '--label', '-L', '--limit', '-S', '--search', '-s', '--state', '-q', '--jq', '-t', '--template', '--json', '--mention', '-m', '--milestone'] },
      view: { value_options: ['-q', '--jq', '-t', '--template', '--json'] },
    }, { ls: 'list' }),
    secret: group(
      {
        remove: { value_options: ['-a', '--app', '-e', '--env', '-o', '--org'] },
        set: { value_options: ['-a', '--app', '-b', '--body', '-e', '--env', '-f', '--env-file', '-o', '--org', '-r', '--repos', '-v', '--visibility'] },
        list: { value_options: ['-a', '--app', '-e', '--env', '-o', '--org', '-q', '--jq', '-t', '--template', '--json'] },
      },
      { delete: 'remove', ls: 'list' },
    ),
    variable: group(
      {
        delete: { value_options: ['-e', '--env', '-o', '--org'] },
        set: { value_options: ['-b', '--body', '-e', '--env', '-f', '--env-file', '-o', '--org', '-r', '--repos', '-v', '--visibility'] },
        get: { value_options: ['-e', '--env', '-o', '--org', '-q', '--jq', '-t', '--template', '--json'] },
        list: { value_options: ['-e', '--env', '-o', '--org', '-q', '--jq', '-t', '--template', '--json'] },
      },
      { remove: 'delete', ls: 'list' },
    ),
    'ssh-key': group({ delete: yes, add: { value_options: ['-t', '--title', '--type'] }, list: {} }, { ls: 'list' }),
    'gpg-key': group({ delete: yes, add: { value_options: ['-t', '--title'] }, list: {} }, { ls: 'list' }),
    auth: group({ login: { value_options: ['-h', '--hostname', '-p', '--git-protocol', '-s', '--scopes'] }, logout: { value_options: ['-h', '--hostname', '-u', '--user'] }, status: { value_options: ['-h', '--hostname'] }, token: { value_options: ['-h', '--hostname', '-u', '--user'] } }),
    run: group({ view: { value_options: ['-j', '--job', '-a', '--attempt', '-q', '--jq', '-t', '--template', '--json'] }, list: { value_options: ['-b', '--branch', '-c', '--commit', '-e', '--event', '-L', '--limit', '-s', '--status', '-u', '--user', '-w', '--workflow', '-q', '--jq', '-t', '--template', '--json'] }, watch: { value_options: ['-i', '--interval'] }, delete: {}, cancel: {}, rerun: { value_options: ['-j', '--job'] }, download: { value_options: ['-D', '--dir', '-n', '--name', '-p', '--pattern'] } }, { ls: 'list' }),
    workflow: group({ run: { value_options: ['-f', '--raw-field', '-F', '--field', '-r', '--ref', '--json'] }, view: { value_options: ['-r', '--ref'] } }, { ls: 'list' }),
    gist: group({ create: { value_options: ['-d', '--desc', '-f', '--filename'] }, edit: { value_options: ['-a', '--add', '-d', '--desc', '-f', '--filename', '-r', '--remove'] } }, { ls: 'list', new: 'create' }),
    label: group({ create: { value_options: ['-c', '--color', '-d', '--description'] }, edit: { value_options: ['-c', '--color', '-d', '--description', '-n', '--name'] } }, { ls: 'list' }),
    cache: group({ delete: {} }, { ls: 'list' }),
    codespace: group(),
    extension: group(),
    alias: group(),
    attestation: group(),
    config: group({ get: { value_options: ['-h', '--host'] }, set: { value_options: ['-h', '--host'] }, list: { value_options: ['-h', '--host'] } }),
    org: group(),
    project: group(),
    ruleset: group(),
    search: group(),
  },
};
