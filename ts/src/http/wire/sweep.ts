/**
 * What the sweep does to a connection whose phase has lasted too long: each phase has its own clock
 * (see {@link Phase}), read against the server's timeouts.
 */
import { Phase } from './phase.js';
import type { WireSettings } from './settings.js';

export const Overdue = {
  /** Within its time. */
  None: 0,
  /** Closed without a word: a connection that never sent a request, or an idle keep-alive one. */
  End: 1,
  /** A head that took too long: answered 408, then closed. */
  Refuse: 2,
  /** A body that took too long: its reader fails with 408 (the kernel answers it), then closed. */
  AbortBody: 3,
  /** Our side ended and the peer never closed its own: cut. */
  Destroy: 4,
} as const;
export type Overdue = (typeof Overdue)[keyof typeof Overdue];

type Timeouts = Pick<WireSettings, 'headersTimeout' | 'requestTimeout' | 'keepAliveTimeout'>;

/** What is due for a connection `elapsed` ms into `phase`; `bodyPending`: a request body still arriving. */
export function overdue(phase: Phase, elapsed: number, timeouts: Timeouts, bodyPending: boolean): Overdue {
  switch (phase) {
    case Phase.Fresh:
      return elapsed > timeouts.headersTimeout ? Overdue.End : Overdue.None;
    case Phase.Idle:
      return elapsed > timeouts.keepAliveTimeout ? Overdue.End : Overdue.None;
    case Phase.Head:
      return elapsed > timeouts.headersTimeout ? Overdue.Refuse : Overdue.None;
    case Phase.Serving:
      return bodyPending && elapsed > timeouts.requestTimeout ? Overdue.AbortBody : Overdue.None;
    case Phase.Closing:
      return elapsed > timeouts.keepAliveTimeout ? Overdue.Destroy : Overdue.None;
    default:
      return Overdue.None;
  }
}
