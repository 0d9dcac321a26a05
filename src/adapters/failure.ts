/**
 * The reply to an event Buckler could not check (fail closed): what every adapter's
 * `failureReply` does, in terms of its own `adaptOutput` and `isBeforeAction`. The CLI never
 * shapes a harness payload itself: it hands over what it read (the parsed payload, or the raw
 * text and the event name `--event` gave) and the adapter answers in its harness's shape.
 */
import type { Adapter, CheckFailure, FailureReply, UncheckedEvent } from './adapter.ts';
import { eventNameFromText } from './payload.ts';
import { failureOutput } from './reply.ts';

/**
 * What an adapter's replies can be built from when the payload did not parse: its event field
 * naming the event, if the text names one unambiguously (else `--event`'s), or nothing.
 */
function replyBasis(known: UncheckedEvent, eventField: string): unknown {
  if ('raw' in known) return known.raw;
  const named = known.text === undefined ? undefined : eventNameFromText(known.text, eventField);
  const event = named ?? known.event;
  return event === undefined ? undefined : { [eventField]: event };
}

/** `failureReply` for an adapter whose replies are `adaptOutput` of a PolicyOutput. */
export function failureReplyOf(a: Pick<Adapter, 'eventField' | 'adaptOutput' | 'isBeforeAction'>): Adapter['failureReply'] {
  return (failure: CheckFailure, known: UncheckedEvent, bypass: boolean): FailureReply => {
    const basis = replyBasis(known, a.eventField);
    const before = a.isBeforeAction(basis);
    const output = { ...failureOutput(failure.reason, before && !bypass, failure.code), bypass: before && bypass };
    return { reply: a.adaptOutput(output, basis), output, before };
  };
}
