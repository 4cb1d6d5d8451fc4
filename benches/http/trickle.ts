/**
 * A hostile client's cost: a ~14 KB request head (short field lines) trickled one byte per write, by 1
 * and by 50 clients at once, against the same application on Arbor's own server (`server: 'arbor'`) and
 * on node:http (`server: 'node'`). Each server runs in a child process, so what is charged to it is its
 * own CPU (`process.cpuUsage()`, user + system) from the first byte to the last answer, and nothing of
 * the load generator's. Reported: server CPU per byte received, each server's, and own / node (target:
 * at most about 2).
 *
 * Every answer is checked (200 and the route's body) before its CPU counts: a server that refused the
 * head, or answered early, cannot look cheap.
 *
 *   node --import tsx benches/http/trickle.ts [--quick] [--clients 1,50] [--size 14000] [--rounds 3]
 *   --quick: a 2 KB head, 1 and 5 clients, one round: checks that it runs, measures nothing
 */
import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

type ServerName = 'arbor' | 'node';
const SERVERS: ServerName[] = ['arbor', 'node'];

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    clients: { type: 'string' },
    size: { type: 'string' },
    rounds: { type: 'string' },
    serve: { type: 'string' },
  },
});

if (args.serve !== undefined) await serve(args.serve as ServerName);
else await measure();

/** The child: the application on one server; answers `cpu` with its CPU time so far (µs). */
async function serve(server: ServerName): Promise<void> {
  const { Application } = await import('../../ts/src/app/index.js');
  const quiet = { debug() {}, info() {}, warn() {}, error: console.error };
  const app = new Application({ server, logger: quiet });
  app.get('/health', (_req, res) => res.send('ok'));
  const listening = app.createServer();
  listening.listen(0, '127.0.0.1');
  await once(listening, 'listening');
  const address = listening.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  process.on('message', (message) => {
    if (message !== 'cpu') return;
    const { user, system } = process.cpuUsage();
    process.send?.({ cpu: user + system });
  });
  process.send?.({ port });
}

/** A GET whose head (blank line included) is about `size` bytes of 20-byte field lines. */
function headOf(size: number): Buffer {
  let head = 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n';
  for (let i = 0; head.length + 22 < size; i++) head += `X-Field-${String(i).padStart(4, '0')}: vvvvv\r\n`;
  return Buffer.from(`${head}\r\n`, 'latin1');
}

async function start(server: ServerName): Promise<{ child: ChildProcess; port: number }> {
  const child = fork(new URL(import.meta.url).pathname, ['--serve', server], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const [message] = (await once(child, 'message')) as [{ port: number }];
  return { child, port: message.port };
}

async function cpuOf(child: ChildProcess): Promise<number> {
  child.send('cpu');
  const [message] = (await once(child, 'message')) as [{ cpu: number }];
  return message.cpu;
}

/** `clients` connections trickle `head` one byte per write, side by side; resolves with every answer. */
async function trickle(port: number, head: Buffer, clients: number): Promise<string[]> {
  const sockets: Socket[] = [];
  for (let i = 0; i < clients; i++) {
    const socket = connect(port, '127.0.0.1');
    socket.setNoDelay(true);
    await once(socket, 'connect');
    sockets.push(socket);
  }
  const answers = sockets.map(
    (socket) =>
      new Promise<string>((resolve, reject) => {
        let received = '';
        socket.on('data', (chunk: Buffer) => {
          received += chunk.toString('latin1');
          if (/\r\n\r\nok$/.test(received)) resolve(received);
        });
        socket.on('error', reject);
        socket.on('close', () => reject(new Error(`closed after ${JSON.stringify(received.slice(0, 80))}`)));
      }),
  );
  for (let at = 0; at < head.byteLength; at++) {
    for (const socket of sockets) socket.write(head.subarray(at, at + 1));
    // A turn of the event loop between bytes: each leaves as its own packet.
    await new Promise((resolve) => setImmediate(resolve));
  }
  const received = await Promise.all(answers);
  for (const socket of sockets) socket.destroy();
  return received;
}

async function measure(): Promise<void> {
  const quick = args.quick === true;
  const size = Number(args.size ?? (quick ? 2_000 : 14_000));
  const clientCounts = (args.clients ?? (quick ? '1,5' : '1,50')).split(',').map(Number);
  const rounds = Number(args.rounds ?? (quick ? 1 : 3));
  const head = headOf(size);
  const children = new Map<ServerName, { child: ChildProcess; port: number }>();
  for (const server of SERVERS) children.set(server, await start(server));
  console.log(`head: ${head.byteLength} bytes, one per write; ${rounds} round(s), the median kept`);
  console.log('clients  server  CPU ms   CPU ns/byte');
  const rows: string[] = [];
  try {
    for (const clients of clientCounts) {
      const perByte = new Map<ServerName, number>();
      for (const server of SERVERS) {
        const { child, port } = children.get(server) as { child: ChildProcess; port: number };
        const samples: number[] = [];
        // One round first, not counted: the server's code compiled and its connection paths warm.
        if (!quick) await trickle(port, head, clients);
        for (let round = 0; round < rounds; round++) {
          const before = await cpuOf(child);
          const answers = await trickle(port, head, clients);
          const used = (await cpuOf(child)) - before;
          for (const answer of answers) {
            if (!answer.startsWith('HTTP/1.1 200 ')) throw new Error(`${server}: ${answer.slice(0, 80)}`);
          }
          samples.push(used);
        }
        samples.sort((a, b) => a - b);
        const cpu = samples[Math.floor(samples.length / 2)] as number;
        const nsPerByte = (cpu * 1000) / (clients * head.byteLength);
        perByte.set(server, nsPerByte);
        console.log(
          `${String(clients).padStart(7)}  ${server.padEnd(6)}  ${(cpu / 1000).toFixed(1).padStart(6)}   ${nsPerByte.toFixed(0).padStart(11)}`,
        );
      }
      const ratio = (perByte.get('arbor') as number) / (perByte.get('node') as number);
      rows.push(
        `| ${clients} | ${(perByte.get('arbor') as number).toFixed(0)} | ${(perByte.get('node') as number).toFixed(0)} | ${ratio.toFixed(2)} |`,
      );
      console.log(
        `${String(clients).padStart(7)}  own / node: ${ratio.toFixed(2)}×${quick ? ' (--quick: not a measurement)' : ''}`,
      );
    }
  } finally {
    for (const { child } of children.values()) child.kill();
  }
  if (quick) return;
  const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'results', 'trickle.md');
  writeFileSync(
    out,
    [
      '# A trickled request head: server CPU per byte, own server against node:http',
      '',
      `A ${head.byteLength}-byte head of short field lines, sent one byte per write (a turn of the event loop`,
      'between bytes, so each byte is its own packet), by 1 and by many clients at once. CPU is the server',
      "process's own (`process.cpuUsage()`, user + system), median of the rounds after a warm-up round; every",
      'answer is checked. Target: own ≤ about 2 × node:http.',
      '',
      `- ${rounds} rounds; Node ${process.version}; ${new Date().toISOString()}.`,
      '- Command: `node --import tsx benches/http/trickle.ts` (defaults: `--clients 1,50 --size 14000 --rounds 3`).',
      '',
      '| clients | own server, ns/byte | node:http, ns/byte | own ÷ node |',
      '|--:|--:|--:|--:|',
      ...rows,
      '',
    ].join('\n'),
  );
  console.log(`wrote ${out}`);
}
