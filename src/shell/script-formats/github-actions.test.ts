import { describe, expect, it } from 'vitest';
import { isShellSetting, workflowRuns } from './github-actions.ts';

const job = (extra: object, steps: object[]): unknown => ({ jobs: { build: { 'runs-on': 'ubuntu-latest', ...extra, steps } } });

describe('workflowRuns', () => {
  it.each([
    ['a run step', job({}, [{ uses: 'actions/checkout@v4' }, { run: 'make' }]), [[['jobs', 'build', 'steps', 1, 'run'], 'make', 'job build, step 2']]],
    ['named', job({}, [{ name: 'test', run: 'npm test' }]), [[['jobs', 'build', 'steps', 0, 'run'], 'npm test', 'job build, step "test"']]],
    ['bash named with options', job({}, [{ run: 'x', shell: 'bash -e {0}' }]), [[['jobs', 'build', 'steps', 0, 'run'], 'x', 'job build, step 1']]],
    ['pwsh step', job({}, [{ run: 'x', shell: 'pwsh' }]), []],
    ['python step', job({}, [{ run: 'x', shell: 'python' }]), []],
    ['job default pwsh', job({ defaults: { run: { shell: 'pwsh' } } }, [{ run: 'x' }]), []],
    ['windows runner, no shell', { jobs: { w: { 'runs-on': 'windows-latest', steps: [{ run: 'x' }] } } }, []],
    ['windows runner, bash', { jobs: { w: { 'runs-on': 'windows-latest', steps: [{ run: 'x', shell: 'bash' }] } } }, [[['jobs', 'w', 'steps', 0, 'run'], 'x', 'job w, step 1']]],
    ['workflow default bash over a windows runner', { defaults: { run: { shell: 'bash' } }, jobs: { w: { 'runs-on': ['self-hosted', 'windows'], steps: [{ run: 'x' }] } } }, [[['jobs', 'w', 'steps', 0, 'run'], 'x', 'job w, step 1']]],
    ['a reusable workflow call, no steps', { jobs: { call: { uses: './.github/workflows/x.yml' } } }, []],
    ['not a workflow', ['run: x'], []],
  ] as const)('%s', (_, doc, want) => {
    expect(workflowRuns(doc).map((s) => [s.path, s.text, s.label])).toEqual(want);
  });

  it.each([
    ['bash', true],
    ['sh', true],
    ['/usr/bin/bash --noprofile --norc -eo pipefail {0}', true],
    ['pwsh', false],
    ['cmd', false],
    ['python {0}', false],
  ] as const)('isShellSetting(%j) = %j', (s, want) => expect(isShellSetting(s)).toBe(want));
});
