/** "a list", "a string", "null", … — for error messages about JSON values. */
export function describeType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  switch (typeof v) {
    case 'object':
      return 'an object';
    case 'string':
      return 'a string';
    case 'number':
      return `the number ${String(v)}`;
    case 'boolean':
      return `${String(v)}`;
    default:
      return typeof v;
  }
}
