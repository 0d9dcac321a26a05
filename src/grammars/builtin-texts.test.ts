import { describe, expect, it } from 'vitest';
import { BUILTIN_GRAMMARS } from './builtin.ts';
import { BUILTIN_TEXTS, BUILTIN_TEXTS_ID, textsId } from './builtin-texts.ts';
import { builtinGrammars, lazyGrammars } from './lazy.ts';

describe('builtin program data as texts', () => {
  it('one JSON text per builtin program, reading back equal to the data', () => {
    expect(Object.keys(BUILTIN_TEXTS)).toEqual(Object.keys(BUILTIN_GRAMMARS));
    for (const [name, text] of Object.entries(BUILTIN_TEXTS)) expect(JSON.parse(text), name).toEqual(BUILTIN_GRAMMARS[name]);
  });

  it('the id changes with any name or text', () => {
    expect(textsId(BUILTIN_TEXTS)).toBe(BUILTIN_TEXTS_ID);
    expect(textsId({ ...BUILTIN_TEXTS, rm: BUILTIN_TEXTS['rm']!.replace('delete', 'write') })).not.toBe(BUILTIN_TEXTS_ID);
    expect(textsId({ ...BUILTIN_TEXTS, extra: '{}' })).not.toBe(BUILTIN_TEXTS_ID);
    expect(textsId({ a: 'b', c: '' })).not.toBe(textsId({ a: '', c: 'b' }));
  });
});

describe('lazyGrammars', () => {
  it('every builtin program, each a getter until first read, then plain data', () => {
    const g = lazyGrammars();
    expect(Object.keys(g)).toEqual(Object.keys(BUILTIN_GRAMMARS));
    expect(Object.getOwnPropertyDescriptor(g, 'git')?.get).toBeTypeOf('function');
    expect(g['git']).toEqual(BUILTIN_GRAMMARS['git']);
    expect(Object.getOwnPropertyDescriptor(g, 'git')).toMatchObject({ enumerable: true, writable: false });
    expect(g['git']).toBe(g['git']);
  });

  it('overrides replace or add programs; an empty text leaves one out', () => {
    const g = lazyGrammars({ git: '{"nested":true}', tool: '{"dashed":true}', rm: '' });
    expect(g['git']).toEqual({ nested: true });
    expect(g['tool']).toEqual({ dashed: true });
    expect(Object.hasOwn(g, 'rm')).toBe(false);
    expect(Object.hasOwn(g, 'rmdir')).toBe(true);
  });

  it('a text that is not a JSON object throws what the caller chooses, when read', () => {
    const g = lazyGrammars({ x: '[1]', y: '{', z: '{"ok":1}' }, (p) => new RangeError(`bad ${p}`));
    expect(() => g['x']).toThrow(new RangeError('bad x'));
    expect(() => g['y']).toThrow(new RangeError('bad y'));
    expect(g['z']).toEqual({ ok: 1 });
    expect(() => lazyGrammars({ x: 'null' })['x']).toThrow(/program 'x' is not a JSON object/);
  });

  it('builtinGrammars is one shared instance', () => {
    expect(builtinGrammars()).toBe(builtinGrammars());
    expect(builtinGrammars()['sudo']).toEqual(BUILTIN_GRAMMARS['sudo']);
  });
});
