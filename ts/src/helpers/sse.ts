/**
 * The `text/event-stream` format (WHATWG HTML, "Server-sent events"): one event as the lines a client's
 * `EventSource` reads. Sending them over a response is sse-stream.ts's.
 */

/** One event. `data` that is not a string is sent as JSON; a string is split into one `data:` line per line. */
export interface ServerSentEvent {
  data: unknown;
  /** The event type (`addEventListener(type, …)` on the client); `message` when absent. */
  event?: string;
  /** The client sends it back as `Last-Event-ID` when it reconnects. */
  id?: string | number;
  /** How long the client waits before reconnecting, in ms. */
  retry?: number;
}

const LINE_BREAK = /\r\n|\r|\n/;

/** One event in the `text/event-stream` format. Throws a `TypeError` on a field that cannot be sent. */
export function encodeEvent(event: ServerSentEvent): string {
  if (typeof event !== 'object' || event === null)
    throw new TypeError(`An event must be an object { data, event?, id?, retry? }, not ${String(event)}`);
  let out = '';
  if (event.event !== undefined) out += `event: ${singleLine('event', event.event)}\n`;
  if (event.id !== undefined) {
    const id = singleLine('id', String(event.id));
    // The client ignores an id holding NUL (HTML §9.2.6): refuse it here rather than lose it silently.
    if (id.includes('\0')) throw new TypeError('An event id cannot contain NUL');
    out += `id: ${id}\n`;
  }
  if (event.retry !== undefined) {
    if (!Number.isInteger(event.retry) || event.retry < 0)
      throw new TypeError(`An event's retry must be a whole number of ms, not ${String(event.retry)}`);
    out += `retry: ${event.retry}\n`;
  }
  const data = event.data;
  // JSON holds no raw line break (one inside a string is escaped as `\n`): one line, no scan.
  if (typeof data !== 'string') return `${out}data: ${JSON.stringify(data) ?? 'null'}\n\n`;
  if (!data.includes('\n') && !data.includes('\r')) return `${out}data: ${data}\n\n`;
  for (const line of data.split(LINE_BREAK)) out += `data: ${line}\n`;
  return `${out}\n`;
}

function singleLine(field: string, value: string): string {
  if (LINE_BREAK.test(value)) throw new TypeError(`An event's ${field} cannot contain a line break`);
  return value;
}
