/**
 * The data, cloud, cluster, infrastructure, container and publishing packs and agent-secrets'
 * reads through tools (docs/packs.md, issue 23), end to end: each table row in wrapper
 * spellings (`sudo`, `bash -c`, `env`, a variable set earlier, `xargs`, `ssh host CMD`,
 * `docker exec`, `kubectl exec -- sh -c`) and the allowed examples, through the built bundle
 * (`buckler check --json --tier T`) and both drivers (`--driver claude-code` with a Bash
 * PreToolUse event, `--driver cursor` with beforeShellExecution), baseline and strict.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bucklerAsync, bundle } from './e2e.testing.ts';

let tmp: string;
let work: string;
const homes = { baseline: '', strict: '' };

beforeAll(() => {
  bundle();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-newpacks-'));
  work = path.join(tmp, 'work');
  fs.mkdirSync(work);
  // A local script: run on a line of its own it is read and analysed as before.
  fs.writeFileSync(path.join(work, 'install.sh'), '#!/bin/sh\necho installing\n');
  for (const tier of ['baseline', 'strict'] as const) {
    homes[tier] = path.join(tmp, `config-${tier}`);
    fs.mkdirSync(path.join(homes[tier], 'rules.d'), { recursive: true });
    fs.writeFileSync(path.join(homes[tier], 'config.toml'), `[core]\ntier = "${tier}"\n`);
  }
}, 120_000);
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function env(tier: 'baseline' | 'strict'): NodeJS.ProcessEnv {
  return {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: tmp,
    BUCKLER_CONFIG_HOME: homes[tier],
    BUCKLER_STATE_HOME: path.join(tmp, 'state'),
    BUCKLER_DATA_HOME: path.join(tmp, 'data'),
  };
}

async function spawn(args: string[], tier: 'baseline' | 'strict', stdin?: string, extra: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const r = await bucklerAsync(args, { cwd: work, env: { ...env(tier), ...extra }, timeout: 30_000, ...(stdin === undefined ? {} : { stdin }) });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

async function viaCheck(command: string, tier: 'baseline' | 'strict', extra: NodeJS.ProcessEnv = {}): Promise<{ decision: string; rule: string | null; agent: string; user: string }> {
  const r = await spawn(['check', '--json', '--tier', tier, '--', command], tier, undefined, extra);
  expect(r.stderr).toBe('');
  const out = JSON.parse(r.stdout) as { decision: string; rule: string | null; agent_message?: string; user_message?: string };
  return { decision: out.decision, rule: out.rule, agent: out.agent_message ?? '', user: out.user_message ?? '' };
}

async function viaClaude(command: string, tier: 'baseline' | 'strict', extra: NodeJS.ProcessEnv = {}): Promise<string> {
  const payload = { session_id: 's', transcript_path: '/t.jsonl', cwd: work, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, tool_use_id: 't1' };
  const r = await spawn(['--driver', 'claude-code'], tier, JSON.stringify(payload), extra);
  expect(r.code, r.stderr).toBe(0);
  if (r.stdout.trim() === '') return 'allow';
  const s = (JSON.parse(r.stdout) as { hookSpecificOutput?: { permissionDecision?: string; additionalContext?: string } }).hookSpecificOutput;
  if (s?.permissionDecision === 'deny' || s?.permissionDecision === 'ask') return s.permissionDecision;
  return s?.additionalContext !== undefined ? 'nudge' : 'allow';
}

async function viaCursor(command: string, tier: 'baseline' | 'strict', extra: NodeJS.ProcessEnv = {}): Promise<string> {
  const payload = { hook_event_name: 'beforeShellExecution', command, cwd: work, workspace_roots: [work], conversation_id: 'c', generation_id: 'g' };
  const r = await spawn(['--driver', 'cursor'], tier, JSON.stringify(payload), extra);
  expect(r.code, r.stderr).toBe(0);
  if (r.stdout.trim() === '') return 'allow';
  const o = JSON.parse(r.stdout) as { permission?: string };
  return o.permission === 'deny' || o.permission === 'ask' ? o.permission : 'allow';
}

type D = 'allow' | 'ask' | 'deny';
/** [command, baseline, strict, rule deciding in baseline (pack/rule), …] */
type Row = [string, D, D, string?];

function table(name: string, rows: Row[]): void {
  describe(name, () => {
    it.each(rows)('%s', async (command, baseline, strict, rule) => {
      const [b, s, claudeB, cursorS] = await Promise.all([
        viaCheck(command, 'baseline'),
        viaCheck(command, 'strict'),
        viaClaude(command, 'baseline'),
        viaCursor(command, 'strict'),
      ]);
      expect(b.decision, 'check, baseline').toBe(baseline);
      expect(s.decision, 'check, strict').toBe(strict);
      if (rule !== undefined) {
        expect(b.rule).toBe(rule);
        expect(s.rule).toBe(`${rule}-strict`);
        // The strict deny does not tell the agent that the person was asked.
        expect(s.agent).not.toMatch(/has been asked/);
      }
      if (baseline !== 'allow') {
        // Messages quote the blocked command (the command the wrappers run).
        expect(b.user).toMatch(/`[^`]+`/);
        expect(b.user).not.toBe('');
        expect(b.agent).not.toBe('');
      }
      expect(claudeB, 'claude-code driver, baseline').toBe(baseline);
      expect(cursorS, 'cursor driver, strict').toBe(strict);
    });
  });
}

/** Rows with the other two (tier, driver) pairs, so that each driver is seen in both tiers. */
function crossTable(name: string, rows: Array<[string, D, D]>): void {
  describe(name, () => {
    it.each(rows)('%s', async (command, baseline, strict) => {
      const [claudeS, cursorB] = await Promise.all([viaClaude(command, 'strict'), viaCursor(command, 'baseline')]);
      expect(claudeS, 'claude-code driver, strict').toBe(strict);
      expect(cursorB, 'cursor driver, baseline').toBe(baseline);
    });
  });
}


const SQL = 'agent-data/sql-destructive';
const DROP = 'agent-data/database-drop';
const MIGRATE = 'agent-data/migration-reset';
const CLOUD = 'agent-cloud/cloud-delete';
const KDEL = 'agent-k8s/kubectl-delete';
const KDIS = 'agent-k8s/kubectl-disrupt';
const HELM = 'agent-k8s/helm-uninstall';
const IAC = 'agent-iac/destroy';
const PRUNE = 'agent-containers/prune-or-volumes';
const RMALL = 'agent-containers/remove-all';
const PUB = 'agent-publish/publish';
const SECRET = 'agent-secrets/secret-value-read';

table('agent-data', [
  ["psql -c 'DROP TABLE users'", 'ask', 'deny', SQL],
  ["sudo -u postgres psql -c 'drop database app'", 'ask', 'deny', SQL],
  ["ssh db1 \"psql -c 'TRUNCATE events'\"", 'ask', 'deny', SQL],
  ['mysql -u root -p -e "DROP DATABASE shop"', 'ask', 'deny', SQL],
  ['dropdb app_dev', 'ask', 'deny', DROP],
  ['docker exec redis redis-cli FLUSHALL', 'ask', 'deny', DROP],
  ["redis-cli --scan --pattern 'session:*' | xargs redis-cli del", 'ask', 'deny', DROP],
  ["kubectl exec -it mongo-0 -- sh -c \"mongosh --eval 'db.dropDatabase()'\"", 'ask', 'deny', DROP],
  ['npx prisma migrate reset --force', 'ask', 'deny', MIGRATE],
  ['env RAILS_ENV=development bin/rails db:drop', 'ask', 'deny', MIGRATE],
  ["psql -c 'SELECT * FROM users'", 'allow', 'allow'],
  ['pg_dump app', 'allow', 'allow'],
  ['redis-cli GET key', 'allow', 'allow'],
  ["mongosh --eval 'db.c.find()'", 'allow', 'allow'],
  ['prisma migrate dev', 'allow', 'allow'],
]);

table('agent-cloud', [
  ['aws s3 rb s3://backups --force', 'ask', 'deny', CLOUD],
  ["bash -c 'aws ec2 terminate-instances --instance-ids i-1'", 'ask', 'deny', CLOUD],
  ['P=staging; aws --profile $P s3 rm s3://b/logs --recursive', 'ask', 'deny', CLOUD],
  ['sudo gcloud projects delete p', 'ask', 'deny', CLOUD],
  ['az group delete --name rg --yes', 'ask', 'deny', CLOUD],
  ['aws s3 ls', 'allow', 'allow'],
  ['aws sts get-caller-identity', 'allow', 'allow'],
  ['gcloud config set project p', 'allow', 'allow'],
  ['az account show', 'allow', 'allow'],
]);

table('agent-k8s', [
  ['kubectl delete ns x', 'ask', 'deny', KDEL],
  ["bash -c 'kubectl -n staging delete deploy api'", 'ask', 'deny', KDEL],
  ['echo payments | xargs kubectl delete namespace', 'ask', 'deny', KDEL],
  ['ssh bastion kubectl drain node-1', 'ask', 'deny', KDIS],
  ['helm uninstall web', 'ask', 'deny', HELM],
  ['kubectl get pods -A', 'allow', 'allow'],
  ['kubectl apply -f k8s/', 'allow', 'allow'],
  ['kubectl delete pod x --dry-run=client', 'allow', 'allow'],
  ['helm template web ./chart', 'allow', 'allow'],
]);

table('agent-iac', [
  ['terraform destroy -auto-approve', 'ask', 'deny', IAC],
  ['env TF_LOG=1 terraform -chdir=stack destroy', 'ask', 'deny', IAC],
  ["sh -c 'pulumi destroy --yes'", 'ask', 'deny', IAC],
  ['terraform plan -destroy', 'allow', 'allow'],
  ['terraform state list', 'allow', 'allow'],
]);

table('agent-containers', [
  ['docker system prune -af', 'ask', 'deny', PRUNE],
  ['sudo docker compose down -v', 'ask', 'deny', PRUNE],
  ['docker rm -f $(docker ps -aq)', 'ask', 'deny', RMALL],
  ['docker ps -aq | xargs docker rm -f', 'ask', 'deny', RMALL],
  ['docker compose down', 'allow', 'allow'],
  ['docker rm -f web', 'allow', 'allow'],
]);

table('agent-publish', [
  ['npm publish', 'ask', 'deny', PUB],
  ["bash -c 'cargo publish'", 'ask', 'deny', PUB],
  ['env NPM_CONFIG_OTP=1 pnpm publish', 'ask', 'deny', PUB],
  ['docker push registry.example.com/app:1', 'ask', 'deny', PUB],
  ['npm publish --dry-run', 'allow', 'allow'],
  ['npm pack', 'allow', 'allow'],
  ['twine check dist/*', 'allow', 'allow'],
]);

table('agent-secrets through tools', [
  ['aws secretsmanager get-secret-value --secret-id prod/db', 'ask', 'deny', SECRET],
  ['kubectl get secret db -o yaml', 'ask', 'deny', SECRET],
  ["sudo bash -c 'vault kv get secret/app'", 'ask', 'deny', SECRET],
  ['kubectl get secrets', 'allow', 'allow'],
  ['aws secretsmanager list-secrets', 'allow', 'allow'],
]);

crossTable('the other driver and tier pairs', [
  ['terraform destroy -auto-approve', 'ask', 'deny'],
  ['kubectl delete ns x', 'ask', 'deny'],
  ['npm publish', 'ask', 'deny'],
  ["psql -c 'DROP TABLE users'", 'ask', 'deny'],
  ['kubectl get pods', 'allow', 'allow'],
  ['npm pack', 'allow', 'allow'],
]);

/**
 * Production targets (docs/packs.md, "Production targets"): denied in both tiers, the message
 * naming the target, through `check` and both drivers in both tiers; look-alikes keep the pack's
 * normal decision. `extra`: environment of the hook (a kubeconfig, `AWS_PROFILE`).
 */
type ProdRow = [string, D, D, string | null, NodeJS.ProcessEnv?];
function productionTable(name: string, rows: ProdRow[]): void {
  describe(name, () => {
    it.each(rows)('%s', async (command, baseline, strict, target, given = {}) => {
      // KUBE_PROD, KUBE_DEV: the kubeconfig files written below.
      const extra = Object.fromEntries(Object.entries(given).map(([k, v]) => [k, v === 'KUBE_PROD' ? KUBE.prod : v === 'KUBE_DEV' ? KUBE.dev : v]));
      // Each driver in one tier per row, the tiers alternating by row: both drivers see both tiers.
      const flip = rows.findIndex((r) => r[0] === command && r[4] === given) % 2 === 1;
      const [b, s, claude, cursor] = await Promise.all([
        viaCheck(command, 'baseline', extra),
        viaCheck(command, 'strict', extra),
        viaClaude(command, flip ? 'strict' : 'baseline', extra),
        viaCursor(command, flip ? 'baseline' : 'strict', extra),
      ]);
      expect([b.decision, s.decision], 'check').toEqual([baseline, strict]);
      expect(claude, 'claude-code driver').toBe(flip ? strict : baseline);
      expect(cursor, 'cursor driver').toBe(flip ? baseline : strict);
      if (target !== null) {
        for (const r of [b, s]) {
          expect(r.rule).toMatch(/-production$/);
          expect(r.user).toContain(`in ${target}, a production environment`);
        }
      } else if (baseline !== 'allow') expect(b.rule).not.toMatch(/-production$/);
    });
  });
}

const KUBE = { prod: '', dev: '' };
beforeAll(() => {
  KUBE.prod = path.join(tmp, 'kube-prod.yaml');
  KUBE.dev = path.join(tmp, 'kube-dev.yaml');
  fs.writeFileSync(KUBE.prod, 'apiVersion: v1\nkind: Config\ncurrent-context: gke_acme_europe-west1_prod\n');
  fs.writeFileSync(KUBE.dev, 'apiVersion: v1\nkind: Config\ncurrent-context: kind-dev\n');
  fs.mkdirSync(path.join(work, 'infra', '.terraform'), { recursive: true });
  fs.writeFileSync(path.join(work, 'infra', '.terraform', 'environment'), 'prod');
  fs.writeFileSync(path.join(work, 'drop.sql'), 'DROP TABLE users;\n');
  fs.writeFileSync(path.join(work, 'report.sql'), 'SELECT count(*) FROM users;\n');
});

productionTable('production targets', [
  ['kubectl --context prod delete ns payments', 'deny', 'deny', 'prod'],
  ["bash -c 'kubectl -n prod delete deploy api'", 'deny', 'deny', 'prod'],
  ['sudo kubectl delete pvc data --context=acme-prod', 'deny', 'deny', 'acme-prod'],
  ['C=live; kubectl --context "$C" drain node-1', 'deny', 'deny', 'live'],
  ['helm uninstall web --kube-context prod-eu', 'deny', 'deny', 'prod-eu'],
  ['kubectl delete pod x', 'deny', 'deny', 'gke_acme_europe-west1_prod', { KUBECONFIG: 'KUBE_PROD' }],
  ['kubectl delete pod x', 'ask', 'deny', null, { KUBECONFIG: 'KUBE_DEV' }],
  ['ssh bastion kubectl delete pod x', 'ask', 'deny', null, { KUBECONFIG: 'KUBE_PROD' }],
  ['kubectl get pods', 'allow', 'allow', null, { KUBECONFIG: 'KUBE_PROD' }],
  ['kubectl delete pod x -n products', 'ask', 'deny', null, { KUBECONFIG: 'KUBE_DEV' }],
  ['kubectl get pods --context prod', 'allow', 'allow', null],
  ['TF_WORKSPACE=prod terraform destroy -auto-approve', 'deny', 'deny', 'prod'],
  ['cd infra && terraform destroy -auto-approve', 'deny', 'deny', 'prod'],
  ['terraform -chdir=infra destroy', 'deny', 'deny', 'prod'],
  ['cd infra && terraform plan', 'allow', 'allow', null],
  ['terraform plan -var-file=prod.tfvars', 'allow', 'allow', null],
  ['terraform destroy -var-file=staging.tfvars', 'ask', 'deny', null],
  ['aws s3 rb s3://backups --force --profile prod', 'deny', 'deny', 'prod'],
  ['aws s3 rb s3://backups --force', 'deny', 'deny', 'production', { AWS_PROFILE: 'production' }],
  ['export AWS_PROFILE=prd; aws ec2 terminate-instances --instance-ids i-1', 'deny', 'deny', 'prd'],
  ['aws s3 ls --profile prod', 'allow', 'allow', null],
  ['aws s3 rb s3://x --profile products', 'ask', 'deny', null],
  ['gcloud projects delete acme --project acme-prod', 'deny', 'deny', 'acme-prod'],
  ['az group delete -n rg --subscription live', 'deny', 'deny', 'live'],
  ['docker --context prod system prune -af', 'deny', 'deny', 'prod'],
  ['DOCKER_CONTEXT=prod docker compose down -v', 'deny', 'deny', 'prod'],
  ['docker --context prod ps', 'allow', 'allow', null],
  ["psql postgres://u:pw@prod-db/app -c 'DROP TABLE users'", 'deny', 'deny', 'prod-db/app'],
  ["psql -h db.prod.internal -c 'TRUNCATE events'", 'deny', 'deny', 'db.prod.internal'],
  ["psql \"$DATABASE_URL\" -c 'DROP TABLE users'", 'deny', 'deny', 'prod-db/app', { DATABASE_URL: 'postgres://u:pw@prod-db/app' }],
  ['psql -h prod-db < drop.sql', 'deny', 'deny', 'prod-db'],
  ['RAILS_ENV=production bin/rails db:drop', 'deny', 'deny', 'production'],
  ['redis-cli -h cache.prod FLUSHALL', 'deny', 'deny', 'cache.prod'],
  ["psql -h prod-db -c 'SELECT 1'", 'allow', 'allow', null],
  ["psql -h products-db -c 'DROP TABLE t'", 'ask', 'deny', null],
  ['RAILS_ENV=production rails db:migrate', 'allow', 'allow', null],
]);

describe('a target that cannot be checked', () => {
  it('keeps the normal decision and says so', async () => {
    const b = await viaCheck('kubectl --context "$CTX" delete ns x', 'baseline');
    expect(b.decision).toBe('ask');
    expect(b.rule).toBe(KDEL);
    expect(b.user).toMatch(/could not be checked/);
    const s = await viaCheck('kubectl --context "$CTX" delete ns x', 'strict');
    expect(s.decision).toBe('deny');
    expect(s.user).toMatch(/could not be checked/);
    expect((await viaCheck('kubectl --context dev delete ns x', 'baseline')).user).not.toMatch(/could not be checked/);
  });
});

describe("a URL's user, password and query", () => {
  it('never appear in a message or an audit record', async () => {
    const command = "psql 'postgres://u:pw@prod-db/app?sslpassword=hunter2' -c 'DROP TABLE users'";
    const payload = { session_id: 's', transcript_path: '/t.jsonl', cwd: work, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, tool_use_id: 't1' };
    const r = await spawn(['--driver', 'claude-code'], 'baseline', JSON.stringify(payload));
    expect(r.stdout).toMatch(/prod-db\/app, a production environment/);
    // Known gap: the allow-once hint quotes the exact command (`buckler allow … -- COMMAND`), which
    // allow-once must match; everything before it is free of the URL's secrets.
    expect(r.stdout.split('buckler allow')[0]).not.toMatch(/u:pw|pw@|hunter2|sslpassword/);
    const c = await viaCheck(command, 'strict');
    expect(`${c.user}\n${c.agent}`).not.toMatch(/u:pw|pw@|hunter2|sslpassword/);
    const audit = fs.readFileSync(path.join(tmp, 'state', 'audit.jsonl'), 'utf8');
    expect(audit).toContain('prod-db');
    expect(audit).not.toMatch(/u:pw|pw@|hunter2|sslpassword/);
  });
});

describe('SQL from files and standard input', () => {
  table('through every reading', [
    ['psql < drop.sql', 'ask', 'deny', SQL],
    ['cat drop.sql | psql app', 'ask', 'deny', SQL],
    ['psql -f drop.sql', 'ask', 'deny', SQL],
    ["psql app <<'EOF'\nDROP TABLE users;\nEOF", 'ask', 'deny', SQL],
    ['mysql shop <<< "DROP TABLE orders"', 'ask', 'deny', SQL],
    ['psql < report.sql', 'allow', 'allow'],
    ["psql app <<'EOF'\nSELECT 1;\nEOF", 'allow', 'allow'],
    ['mysql shop <<< "SELECT 1"', 'allow', 'allow'],
  ]);
  it('a file that cannot be read asks', async () => {
    const b = await viaCheck('psql -f missing.sql', 'baseline');
    expect([b.decision, b.rule]).toEqual(['ask', 'agent-data/sql-unread']);
  });
});
