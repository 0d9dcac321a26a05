/**
 * Everything that compiles packs and config.toml from their source text: the YAML and TOML
 * readers, the pack schema, the compiler and rule examples. `runtime.ts` imports this module
 * only when the compiled-pack cache misses, so a warm hook neither loads nor initialises any of
 * it (docs/performance.md).
 */
export { compilePolicy, type PackSource } from './compile.ts';
export { DEFAULT_CONFIG, lineOfKey, parseConfig, unparsableConfig, withStrictReading } from './config.ts';
export { formatProblem } from './problems.ts';
export { parseYaml, YamlSyntaxError } from './yaml.ts';
export { readHeader } from './schema.ts';
export { BundleRefused, verifyBundle } from './bundle.ts';
export { brokenProjectRule, isProjectProblem, loadProject } from './project-load.ts';
