/** An own, enumerable, configurable getter `name` on `out` that calls `read(this, name)` (lazy.ts). */
export function defineLazy(out: object, name: string, read: (self: object, name: string) => unknown): void {
  Object.defineProperty(out, name, {
    enumerable: true,
    configurable: true,
    get(this: object) {
      return read(this, name);
    },
  });
}
