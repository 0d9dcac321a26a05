import { describe, expect, it } from 'vitest';
import type { ProgramGrammar } from '../grammars/types.ts';
import { commandTargets, DEFAULT_PRODUCTION, isProduction, urlValue, type TargetContext } from './targets.ts';

describe('isProduction: a part (split at -_.:/@) equals a listed word, or a * pattern matches', () => {
  it.each([
    ['prod', true],
    ['PROD', true],
    ['prod-eu', true],
    ['acme-prod', true],
    ['acme_production', true],
    ['db.prd.internal', true],
    ['arn:aws:eks:eu-west-1:1:cluster/live', true],
    ['team@prod', true],
    ['products', false],
    ['production-like'.replace('production', 'productions'), false],
    ['reproduce', false],
    ['staging', false],
    ['dev', false],
    ['', false],
  ])('%s → %s', (value, want) => {
    expect(isProduction(value, DEFAULT_PRODUCTION)).toBe(want);
  });
  it('replaceable list with * patterns', () => {
    expect(isProduction('eu-main', ['*-main'])).toBe(true);
    expect(isProduction('acme-blue', ['acme-*'])).toBe(true);
    expect(isProduction('prod', ['acme-*'])).toBe(false);
    expect(isProduction('Main', ['main'])).toBe(true);
  });
});

describe('urlValue: host and database only', () => {
  it.each([
    ['postgres://u:pw@prod-db/app', ['prod-db', 'app'], 'prod-db/app'],
    ['postgresql://prod-db:5432/app?sslmode=require&password=x', ['prod-db', 'app'], 'prod-db/app'],
    ['mysql://root@db.internal/shop_production', ['db.internal', 'shop_production'], 'db.internal/shop_production'],
    ['redis://:secret@cache:6379', ['cache'], 'cache'],
    ['mongodb+srv://u:p@cluster0.prod.example.net/app', ['cluster0.prod.example.net', 'app'], 'cluster0.prod.example.net/app'],
    ['app_dev', ['app_dev'], 'app_dev'],
  ])('%s', (word, compared, shown) => {
    expect(urlValue(word)).toEqual({ compared, shown });
    expect(urlValue(word).shown).not.toMatch(/pw|secret|password|u:|root@/);
  });
});

const kubectl: ProgramGrammar = {
  env_roles: { KUBE_CTX: 'ctx' },
  ambient_roles: { ctx: 'kube_context' },
  role_kinds: { ctx: { marks: {}, target: 'name' }, ns: { marks: {}, target: 'name' } },
};
const psql: ProgramGrammar = { env_roles: { PGHOST: 'host' }, role_kinds: { host: { marks: {}, target: 'name' }, url: { marks: {}, target: 'url' } } };
const cmd = { argv: ['x'], dynamic: [], opaque: false, via: [] };
const ctx = (over: Partial<TargetContext> = {}): TargetContext => ({ env: {}, lineSets: null, production: DEFAULT_PRODUCTION, readTarget: undefined, ...over });
const roles = (o: Record<string, string[]>): Map<string, string[]> => new Map(Object.entries(o));
const never = (): boolean => false;

describe('commandTargets', () => {
  it('a role word that is production', () => {
    expect(commandTargets(kubectl, roles({ ns: ['prod'] }), never, cmd, ctx({ readTarget: () => 'dev' }))).toEqual({ production: 'prod', unchecked: false });
  });
  it('a look-alike is not production, and the ambient context is read when the command gives none', () => {
    let asked = 0;
    const read = (name: string): string => {
      asked++;
      expect(name).toBe('kube_context');
      return 'dev-eu';
    };
    expect(commandTargets(kubectl, roles({ ns: ['products'] }), never, cmd, ctx({ readTarget: read }))).toEqual({ production: null, unchecked: false });
    expect(asked).toBe(1);
  });
  it('the ambient value may be production', () => {
    expect(commandTargets(kubectl, roles({}), never, cmd, ctx({ readTarget: () => 'gke_acme_prod' })).production).toBe('gke_acme_prod');
  });
  it('an ambient value that cannot be read is unchecked', () => {
    expect(commandTargets(kubectl, roles({}), never, cmd, ctx({ readTarget: () => null }))).toEqual({ production: null, unchecked: true });
    expect(commandTargets(kubectl, roles({}), never, cmd, ctx())).toEqual({ production: null, unchecked: true });
  });
  it('the line\'s assignment wins over the hook\'s environment', () => {
    const c = ctx({ env: { KUBE_CTX: 'dev' }, lineSets: new Map([['KUBE_CTX', ['prod']]]) });
    expect(commandTargets(kubectl, roles({}), never, cmd, c).production).toBe('prod');
    expect(commandTargets(kubectl, roles({}), never, cmd, ctx({ env: { KUBE_CTX: 'live' } })).production).toBe('live');
    expect(commandTargets(kubectl, roles({}), never, cmd, ctx({ lineSets: new Map([['KUBE_CTX', [null]]]) })).unchecked).toBe(true);
  });
  it('a run-time word is unchecked, unless it is one variable whose value is known', () => {
    expect(commandTargets(psql, roles({ url: ['$Q'] }), () => true, cmd, ctx())).toEqual({ production: null, unchecked: true });
    expect(commandTargets(psql, roles({ url: ['$DATABASE_URL'] }), () => true, cmd, ctx({ env: { DATABASE_URL: 'postgres://u:pw@prod-db/app' } }))).toEqual({ production: 'prod-db/app', unchecked: false });
    expect(commandTargets(psql, roles({ url: ['${DATABASE_URL}'] }), () => true, cmd, ctx({ env: { DATABASE_URL: 'postgres://localhost/app' } }))).toEqual({ production: null, unchecked: false });
  });
  it('no ambient role and no word: a local default, nothing to check', () => {
    expect(commandTargets(psql, roles({}), never, cmd, ctx())).toEqual({ production: null, unchecked: false });
  });
  it('a program without target roles has none', () => {
    expect(commandTargets({}, roles({ x: ['prod'] }), never, cmd, ctx())).toEqual({ production: null, unchecked: false });
  });
});
