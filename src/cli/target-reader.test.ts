import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { currentContext, kubeContext, targetReader } from './target-reader.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-targets-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const cmd = (argv: string[], via: string[] = [], cwd?: { value: string; dynamic: boolean } | null) => ({ argv, dynamic: [], opaque: false, via, ...(cwd !== undefined && { cwd }) });

describe('currentContext', () => {
  it.each<[string, string | null | undefined]>([
    ['apiVersion: v1\ncurrent-context: prod-eu\nkind: Config\n', 'prod-eu'],
    ["current-context: 'acme prod'\n", 'acme prod'],
    ['current-context: "gke_a_b_prod"  # note\n', 'gke_a_b_prod'],
    ['{"current-context": "live", "kind": "Config"}', 'live'],
    ['contexts:\n- name: prod\n  context:\n    current-context: x\n', undefined],
    ['current-context: ""\n', undefined],
    ['current-context: *anchor\n', null],
    ['kind: Config\n', undefined],
  ])('%j', (text, want) => {
    expect(currentContext(text)).toBe(want);
  });
});

describe('targetReader', () => {
  const home = path.join(dir, 'home');
  fs.mkdirSync(path.join(home, '.kube'), { recursive: true });
  fs.writeFileSync(path.join(home, '.kube', 'config'), 'current-context: prod\n');
  const other = path.join(dir, 'other.yaml');
  fs.writeFileSync(other, 'current-context: dev\n');
  const tf = path.join(dir, 'infra');
  fs.mkdirSync(path.join(tf, '.terraform'), { recursive: true });
  fs.writeFileSync(path.join(tf, '.terraform', 'environment'), 'live\n');

  it('the kubeconfig: $KUBECONFIG first, else ~/.kube/config', () => {
    expect(kubeContext({ HOME: home })).toBe('prod');
    expect(kubeContext({ HOME: home, KUBECONFIG: `${path.join(dir, 'none')}${path.delimiter}${other}` })).toBe('dev');
    expect(kubeContext({ HOME: path.join(dir, 'nobody') })).toBeNull();
  });
  it('terraform: .terraform/environment where the command runs, default without it', () => {
    const read = targetReader(tf, { HOME: home });
    expect(read('terraform_workspace', cmd(['terraform', 'destroy']))).toBe('live');
    expect(read('terraform_workspace', cmd(['terraform', '-chdir=..', 'destroy']))).toBe('default');
    expect(read('terraform_workspace', cmd(['terraform', 'destroy'], [], { value: '..', dynamic: false }))).toBe('default');
    expect(read('terraform_workspace', cmd(['terraform', 'destroy'], [], null))).toBeNull();
  });
  it('never for a command run on another machine or in a container', () => {
    const read = targetReader(tf, { HOME: home });
    expect(read('kube_context', cmd(['kubectl', 'delete', 'ns', 'x']))).toBe('prod');
    for (const via of ['ssh', 'docker exec', 'kubectl exec', 'podman exec']) expect(read('kube_context', cmd(['kubectl', 'delete', 'ns', 'x'], [via]))).toBeNull();
    expect(read('terraform_workspace', cmd(['terraform', 'destroy'], ['ssh']))).toBeNull();
  });
  it('an unknown name is not determinable', () => {
    expect(targetReader(tf, { HOME: home })('something', cmd(['x']))).toBeNull();
  });
});
