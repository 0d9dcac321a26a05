import { describe, expect, it } from 'vitest';
import type { UncheckedEvent } from './adapter.ts';
import { ADAPTERS } from './registry.ts';
import { failureOutput } from './reply.ts';

/**
 * Every adapter's failure reply is its own reply to `failureOutput` for the event that can be
 * read of the payload: the parsed payload, else the event its text names unambiguously, else
 * `--event`'s, else none (answered as an event before an action: fail closed).
 */
describe.each(Object.values(ADAPTERS).map((a) => [a.name, a] as const))('%s failureReply', (_name, adapter) => {
  const field = adapter.eventField;
  const before = adapter.selfTestEvent('ls', '/tmp');
  const beforeName = String(before[field] ?? '');
  const cases: [string, UncheckedEvent, unknown][] = [
    ['the parsed payload', { raw: before }, before],
    ['nothing read', { text: undefined, event: undefined }, undefined],
    ['text naming the event', { text: `{"${field}":"${beforeName}",`, event: undefined }, beforeName === '' ? undefined : { [field]: beforeName }],
    ['text naming none, --event given', { text: '{', event: 'SomeEvent' }, { [field]: 'SomeEvent' }],
    ['text naming two events', { text: `{"${field}":"A","${field}":"B"`, event: undefined }, undefined],
  ];
  it.each(cases)('%s', (_case, known, basis) => {
    for (const bypass of [false, true]) {
      const got = adapter.failureReply({ code: 'bad_json', reason: 'stdin is bad' }, known, bypass);
      const isBefore = adapter.isBeforeAction(basis);
      expect(got.before).toBe(isBefore);
      expect(got.output).toEqual({ ...failureOutput('stdin is bad', isBefore && !bypass, 'bad_json'), bypass: isBefore && bypass });
      expect(got.reply).toEqual(adapter.adaptOutput(got.output, basis));
      expect(adapter.isBlocking(got.reply)).toBe(isBefore && !bypass);
    }
  });
});
