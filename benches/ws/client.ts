/**
 * The load: `connections` WebSocket clients (`ws`), each keeping `window` small text messages in flight
 * and sending the next one as each echo comes back, for `seconds`. Every echo is checked against what was
 * sent (in order, byte for byte): a server that answers wrongly fails the run instead of winning it.
 */
import { WebSocket } from 'ws';

export interface LoadOptions {
  url: string;
  connections: number;
  window: number;
  seconds: number;
  /** Seconds of load before the timed period (connections warm, JIT done). */
  warmup: number;
  /** Bytes per message. */
  size: number;
  /** Called as the timed period starts and as it ends (the runner reads the server's CPU time there). */
  timed?: { start(): void; end(): void };
}

export interface LoadResult {
  /** Echoes received during the timed period. */
  messages: number;
  perSecond: number;
}

function open(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { perMessageDeflate: false });
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** A message whose content says its sequence number, padded to `size` bytes. */
function message(sequence: number, size: number): string {
  return `${sequence}`.padEnd(size, '.');
}

export async function load(options: LoadOptions): Promise<LoadResult> {
  const sockets = await Promise.all(Array.from({ length: options.connections }, () => open(options.url)));
  let messages = 0;
  let running = true;
  let failure: Error | null = null;
  for (const socket of sockets) {
    let sent = 0;
    let expected = 0;
    socket.on('message', (data) => {
      const text = String(data);
      if (text !== message(expected, options.size)) {
        failure ??= new Error(`echo ${expected} came back as ${JSON.stringify(text.slice(0, 40))}`);
        return;
      }
      expected++;
      messages++;
      if (running) socket.send(message(sent++, options.size));
    });
    for (let i = 0; i < options.window; i++) socket.send(message(sent++, options.size));
  }
  await new Promise((resolve) => setTimeout(resolve, options.warmup * 1000));
  messages = 0;
  options.timed?.start();
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, options.seconds * 1000));
  running = false;
  const elapsed = (performance.now() - started) / 1000;
  const counted = messages;
  options.timed?.end();
  await Promise.all(
    sockets.map(
      (socket) =>
        new Promise<void>((resolve) => {
          socket.once('close', () => resolve());
          socket.close();
        }),
    ),
  );
  if (failure !== null) throw failure;
  return { messages: counted, perSecond: counted / elapsed };
}
