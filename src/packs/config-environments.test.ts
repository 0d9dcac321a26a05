import { describe, expect, it } from 'vitest';
import { parseConfig } from './config.ts';

describe('config.toml [environments] production', () => {
  it('absent: the default list applies (no value set)', () => {
    const { config, problems } = parseConfig('[core]\ntier = "baseline"\n', 'config.toml');
    expect(config.environments).toBeUndefined();
    expect(problems).toEqual([]);
  });
  it('replaces the default list', () => {
    const { config, problems } = parseConfig('[environments]\nproduction = ["main", "*-live"]\n', 'config.toml');
    expect(config.environments).toEqual({ production: ['main', '*-live'] });
    expect(problems).toEqual([]);
    expect(config.strict_reading).toBeUndefined();
  });
  it.each([
    ['production = "prod"', ['prod', 'production', 'prd', 'live']],
    ['production = []', ['prod', 'production', 'prd', 'live']],
    ['production = ["acme", 3, ""]', ['prod', 'production', 'prd', 'live', 'acme']],
  ])('a bad value is read the strict way: the default list and its words (%s)', (line, want) => {
    const { config, problems } = parseConfig(`[environments]\n${line}\n`, 'config.toml');
    expect(config.environments).toEqual({ production: want });
    expect(problems[0]).toMatchObject({ severity: 'error', line: 2 });
    expect(config.strict_reading).toMatch(/environments\.production/);
  });
  it('an unknown key is an error and ignored', () => {
    const { config, problems } = parseConfig('[environments]\nstaging = ["stg"]\n', 'config.toml');
    expect(config.environments).toBeUndefined();
    expect(problems[0]?.message).toMatch(/unknown key environments\.staging/);
  });
});
