/**
 * Test-only: a small JSON Schema (2020-12) checker for the keywords that
 * docs/contracts/policy-io.schema.json uses. Any other keyword is refused, so the schema cannot
 * silently grow beyond what the tests check.
 */

type Schema = Record<string, unknown> | boolean;

const KNOWN = new Set([
  '$schema', '$id', '$defs', '$ref', 'title', 'description',
  'type', 'enum', 'const', 'properties', 'required', 'additionalProperties', 'items', 'anyOf',
]);

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/** Problems found, as `path: what`; empty when `value` is valid. */
export function checkSchema(root: Record<string, unknown>, value: unknown, schema: Schema = root, at = '$'): string[] {
  if (schema === true) return [];
  if (schema === false) return [`${at}: not allowed`];
  for (const k of Object.keys(schema)) if (!KNOWN.has(k)) throw new Error(`schema walker does not support "${k}"`);
  const out: string[] = [];
  const ref = schema['$ref'];
  if (typeof ref === 'string') {
    const m = /^#\/\$defs\/(.+)$/.exec(ref);
    if (!m) throw new Error(`unsupported $ref ${ref}`);
    const target = (root['$defs'] as Record<string, Schema>)[m[1]!];
    if (target === undefined) throw new Error(`unresolved $ref ${ref}`);
    out.push(...checkSchema(root, value, target, at));
  }
  const type = schema['type'];
  if (type !== undefined) {
    const types = Array.isArray(type) ? (type as string[]) : [type as string];
    const t = typeOf(value);
    if (!types.includes(t) && !(t === 'integer' && types.includes('number'))) return [...out, `${at}: must be ${types.join(' or ')}, is ${t}`];
  }
  if ('const' in schema && JSON.stringify(schema['const']) !== JSON.stringify(value)) out.push(`${at}: must be ${JSON.stringify(schema['const'])}`);
  const en = schema['enum'];
  if (Array.isArray(en) && !en.some((e) => JSON.stringify(e) === JSON.stringify(value))) out.push(`${at}: must be one of ${JSON.stringify(en)}`);
  const anyOf = schema['anyOf'];
  if (Array.isArray(anyOf) && !anyOf.some((s) => checkSchema(root, value, s as Schema, at).length === 0)) out.push(`${at}: matches none of anyOf`);
  if (typeOf(value) === 'object') {
    const obj = value as Record<string, unknown>;
    const props = (schema['properties'] ?? {}) as Record<string, Schema>;
    for (const r of (schema['required'] ?? []) as string[]) if (!(r in obj)) out.push(`${at}: missing ${r}`);
    for (const [k, v] of Object.entries(obj)) {
      if (k in props) out.push(...checkSchema(root, v, props[k]!, `${at}.${k}`));
      else if (schema['additionalProperties'] !== undefined) out.push(...checkSchema(root, v, schema['additionalProperties'] as Schema, `${at}.${k}`));
    }
  }
  if (Array.isArray(value) && schema['items'] !== undefined) {
    value.forEach((v, i) => out.push(...checkSchema(root, v, schema['items'] as Schema, `${at}[${i}]`)));
  }
  return out;
}
