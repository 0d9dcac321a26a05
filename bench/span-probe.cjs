// Preloaded by bench/run.mjs (`node --require bench/span-probe.cjs dist/buckler.cjs …`): prints
// on stderr how long the process ran after Node's own start-up, up to its 'exit' event, i.e.
// Buckler's own time (loading the bundle and its code cache, reading the event and the policy,
// deciding, answering). Far less noisy than whole-process timings, so the better A/B measure.
'use strict';
const start = performance.now();
process.on('exit', () => {
  require('node:fs').writeSync(2, `\nbuckler-bench-span ${start.toFixed(3)} ${(performance.now() - start).toFixed(3)}\n`);
});
