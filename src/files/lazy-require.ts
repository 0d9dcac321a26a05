/**
 * An external runtime dependency (js-yaml, smol-toml), `require()`d on first use: the packs
 * compiler, config reader and installers need them; a warm hook never loads either.
 */
import { createRequire } from 'node:module';

export function lazyRequire<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => {
    if (loaded === undefined) {
      const req = typeof require === 'function' ? require : createRequire(import.meta.url);
      loaded = req(name) as T;
    }
    return loaded;
  };
}
