import { describe, expect, it } from 'vitest';
import { kindByName } from './files.ts';

describe('kindByName', () => {
  it.each([
    ['package.json', 'package-json'],
    ['web/package.json', 'package-json'],
    ['Makefile', 'makefile'],
    ['sub/GNUmakefile', 'makefile'],
    ['rules.mk', 'makefile'],
    ['.github/workflows/ci.yml', 'github-actions'],
    ['.github/workflows/ci.yaml', 'github-actions'],
    ['.gitlab-ci.yml', 'gitlab-ci'],
    ['ci/build.gitlab-ci.yml', 'gitlab-ci'],
    ['Dockerfile', 'dockerfile'],
    ['docker/Dockerfile.prod', 'dockerfile'],
    ['api.dockerfile', 'dockerfile'],
    ['Containerfile', 'dockerfile'],
    ['.githooks/pre-push', 'git-hook'],
    ['.husky/pre-commit', 'git-hook'],
    ['scripts/deploy.sh', 'shell-script'],
    ['x.bash', 'shell-script'],
    ['bin/setup', 'maybe-shell'],
    // Look-alikes: not what they seem by name.
    ['package.json.bak', null],
    ['.github/ci.yml', null],
    ['.github/workflows/README.md', null],
    ['Makefile.am', null],
    ['.husky/README.md', null],
    ['docs/Dockerfile.md', null],
    ['notes.shtml', null],
    ['src/index.ts', null],
  ] as const)('%s → %s', (rel, want) => expect(kindByName(rel)).toBe(want));
});
