/**
 * The SSE case's clients, in a process of their own (started by sse.ts with an IPC channel): `clients`
 * plain node:http requests, opened in batches, each reading its event stream to the end and checking
 * every event against the one expected (`sseEvent(n)`: type, id, JSON data). It reports when every
 * client has its answer's head, then the totals once every stream has ended (or the deadline passed).
 */
import { request } from 'node:http';
import { sseEvent } from './servers/payloads.js';
import { EventStreamReader } from './sse-parse.js';

export interface ClientOrder {
  url: string;
  clients: number;
  /** Events each stream should carry. */
  events: number;
  /** Connections opened at once, then a pause of `batchGapMs`. */
  batch: number;
  batchGapMs: number;
  /** Give up on streams still open after this long. */
  deadlineMs: number;
}

export interface ClientReport {
  type: 'done';
  /** Events received and correct. */
  events: number;
  /** Sum over clients of the time from request to the stream's end, in seconds. */
  clientSeconds: number;
  /** Heartbeat comment lines received. */
  comments: number;
  /** Streams that ended with fewer events than expected, or not at all by the deadline. */
  short: number;
  /** The first few problems, as text. */
  problems: string[];
}

const send = (message: object) => process.send?.(message);

function run(order: ClientOrder): void {
  const expected = Array.from({ length: order.events }, (_, n) => {
    const e = sseEvent(n);
    return { event: e.event, id: e.id, data: JSON.stringify(e.data) };
  });
  const report: ClientReport = {
    type: 'done',
    events: 0,
    clientSeconds: 0,
    comments: 0,
    short: 0,
    problems: [],
  };
  const problem = (text: string) => {
    if (report.problems.length < 5) report.problems.push(text);
  };
  let heads = 0;
  let ended = 0;
  const finish = () => {
    clearTimeout(deadline);
    send(report);
  };
  const deadline = setTimeout(() => {
    report.short += order.clients - ended;
    problem(`${order.clients - ended} stream(s) still open after ${order.deadlineMs} ms`);
    finish();
  }, order.deadlineMs);

  const open = (index: number) => {
    const started = performance.now();
    const req = request(order.url, { agent: false }, (res) => {
      if (res.statusCode !== 200) problem(`client ${index}: status ${res.statusCode}`);
      if (++heads === order.clients) send({ type: 'connected' });
      const reader = new EventStreamReader();
      let seen = 0;
      res.setEncoding('utf8');
      res.on('data', (text: string) => {
        for (const event of reader.feed(text)) {
          const want = expected[seen];
          if (
            want === undefined ||
            event.event !== want.event ||
            event.id !== want.id ||
            event.data !== want.data
          )
            problem(`client ${index}, event ${seen}: ${JSON.stringify(event).slice(0, 120)}`);
          else report.events++;
          seen++;
        }
      });
      res.once('end', () => {
        report.clientSeconds += (performance.now() - started) / 1000;
        report.comments += reader.comments;
        if (seen !== order.events) report.short++;
        if (++ended === order.clients) finish();
      });
    });
    req.once('error', (error) => {
      problem(`client ${index}: ${error.message}`);
      report.short++;
      if (++ended === order.clients) finish();
    });
    req.end();
  };

  let next = 0;
  const openBatch = () => {
    const until = Math.min(order.clients, next + order.batch);
    while (next < until) open(next++);
    if (next < order.clients) setTimeout(openBatch, order.batchGapMs);
  };
  openBatch();
}

process.once('message', (order: ClientOrder) => run(order));
process.on('disconnect', () => process.exit(0));
send({ type: 'ready' });
