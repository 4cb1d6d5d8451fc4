/**
 * One timer per heartbeat period for every live event stream, instead of a `setInterval` per connection:
 * a thousand streams then cost a thousand entries in a `Set` rather than a thousand timers, and a tick
 * visits each once. The timer runs only while a stream with that period is live, and never holds the
 * process open.
 */

/** What a tick asks of each live stream: send a heartbeat if it was quiet since the last tick. */
export interface Beating {
  beat(): void;
}

interface Period {
  readonly timer: NodeJS.Timeout;
  readonly members: Set<Beating>;
}

const periods = new Map<number, Period>();

/** `member` is called every `everyMs` until {@link stopBeating}. */
export function startBeating(member: Beating, everyMs: number): void {
  let period = periods.get(everyMs);
  if (period === undefined) {
    const members = new Set<Beating>();
    const timer = setInterval(() => {
      for (const each of members) each.beat();
    }, everyMs);
    timer.unref();
    period = { timer, members };
    periods.set(everyMs, period);
  }
  period.members.add(member);
}

export function stopBeating(member: Beating, everyMs: number): void {
  const period = periods.get(everyMs);
  if (period === undefined || !period.members.delete(member) || period.members.size > 0) return;
  clearInterval(period.timer);
  periods.delete(everyMs);
}
