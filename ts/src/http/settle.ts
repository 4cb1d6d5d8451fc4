/**
 * What happens once a request is dispatched: the one place that decides it for every transport (node:http's
 * listener, its detached CONNECT/upgrade requests, Arbor's own connection), as Fastify's `wrap-thenable`
 * does for its handlers. The answer may come now or later; either way the transport's `write` gets it. A
 * throw or a rejection — a bug, since the kernel never throws — and an answer `write` cannot write are
 * logged once, with the same words on every transport, and the transport's `fail` writes the bare 500.
 *
 * The transport's part is an object of two functions made once per transport, and what they write to
 * (`target`: a node response, a socket, a connection) is passed along: a request allocates nothing here
 * unless its answer comes later.
 */
import type { Dispatch, IncomingInput, OutgoingResponse, TransportLogger } from './dispatch.js';
import { crashAnswer, type ErrorFormat } from './refusal.js';

/** How a transport writes answers: what differs between transports, and only that. */
export interface Answering<Target, Input extends IncomingInput> {
  /**
   * Writes the application's answer to `input`; `later` when it came after `dispatch` returned (a
   * promise). May throw for an answer that cannot be written (checked before its first byte goes out).
   */
  write(target: Target, input: Input, response: OutgoingResponse, later: boolean): void;
  /** Writes `answer` (the bare 500) as the connection's last, or cuts the connection if an answer began. */
  fail(target: Target, answer: OutgoingResponse): void;
  /** Where a failure is logged. */
  loggerOf(target: Target): TransportLogger;
  /** The body of the bare 500 (default `{ error, code }`). */
  format?: ErrorFormat;
}

/** Dispatches `input` and hands the answer to `answering`; never throws. */
export function settle<Target, Input extends IncomingInput>(
  dispatch: Dispatch,
  input: Input,
  target: Target,
  answering: Answering<Target, Input>,
): void {
  let outcome: OutgoingResponse | Promise<OutgoingResponse>;
  try {
    outcome = dispatch(input);
  } catch (error) {
    crashed(error, target, answering);
    return;
  }
  if (outcome instanceof Promise)
    outcome.then(
      (response) => deliver(response, true, input, target, answering),
      (error: unknown) => crashed(error, target, answering),
    );
  else deliver(outcome, false, input, target, answering);
}

function deliver<Target, Input extends IncomingInput>(
  response: OutgoingResponse,
  later: boolean,
  input: Input,
  target: Target,
  answering: Answering<Target, Input>,
): void {
  try {
    answering.write(target, input, response, later);
  } catch (error) {
    crashed(error, target, answering);
  }
}

function crashed<Target, Input extends IncomingInput>(
  error: unknown,
  target: Target,
  answering: Answering<Target, Input>,
): void {
  answering
    .loggerOf(target)
    .error(`could not write the response: ${error instanceof Error ? error.message : String(error)}`, error);
  answering.fail(target, crashAnswer(answering.format));
}
