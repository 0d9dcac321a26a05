import { describe, expect, it } from 'vitest';
import { gitlabScripts } from './gitlab-ci.ts';

describe('gitlabScripts', () => {
  it('every job script line, nested lists flattened, default and top-level ones too', () => {
    const doc = {
      stages: ['build'],
      variables: { script: 'not a job' },
      before_script: 'echo top',
      default: { after_script: ['echo done'] },
      build: { stage: 'build', before_script: ['git status'], script: ['make', ['npm ci', 'npm test']] },
      '.template': { script: 'git push --force' },
      deploy: { script: 'make deploy', rules: [{ if: '$CI' }] },
    };
    expect(gitlabScripts(doc).map((s) => [s.path.join('.'), s.text, s.label])).toEqual([
      ['before_script', 'echo top', 'top-level before_script'],
      ['default.after_script.0', 'echo done', 'default after_script'],
      ['build.before_script.0', 'git status', 'job build before_script'],
      ['build.script.0', 'make', 'job build script'],
      ['build.script.1.0', 'npm ci', 'job build script'],
      ['build.script.1.1', 'npm test', 'job build script'],
      ['.template.script', 'git push --force', 'job .template script'],
      ['deploy.script', 'make deploy', 'job deploy script'],
    ]);
  });

  it.each([null, 'x', [1], { build: { image: 'node', scripts: ['typo: not read'] } }])('nothing to run: %j', (doc) => {
    expect(gitlabScripts(doc)).toEqual([]);
  });
});
