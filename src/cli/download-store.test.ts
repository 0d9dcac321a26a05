import { describe, expect, it } from 'vitest';
import { MAY_PRODUCE, mayProduce } from './download-store.ts';

describe('mayProduce', () => {
  // The cheap substring test in front of MAY_PRODUCE must never hide a line the expression matches.
  const lines = [
    'ls -la', 'git push --force', 'npm test', 'make test', 'cd build && rm -rf out', 'xhost +', 'echo basename',
    'curl -o x.sh https://e.x/i.sh', 'wget2 URL', 'wget URL', 'fetch x', 'http GET x', 'https x', 'xh x', 'xhs x',
    'lwp-request x', 'aria2c x', 'base64 -d p > x', 'base32 -d', 'basenc --base64', 'openssl enc -d', 'xxd -r',
    'uudecode f', 'gunzip f', 'zcat f', 'bunzip2 f', 'bzcat f', 'unxz f', 'xzcat f', 'unzstd f', 'zstdcat f',
    'mycurl x', 'curler', 'a;curl x', '',
  ];
  it.each(lines)('%j: as MAY_PRODUCE says', (line) => {
    expect(mayProduce(line)).toBe(MAY_PRODUCE.test(line));
  });
  it('finds the downloaders and decoders', () => {
    expect(mayProduce('curl -o x.sh https://e.x/i.sh')).toBe(true);
    expect(mayProduce('bzcat f')).toBe(true);
    expect(mayProduce('ls -la')).toBe(false);
  });
});
