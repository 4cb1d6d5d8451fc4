/**
 * The load generator of `npm run bench:http`: wrk (C, one thread, epoll) in its own process.
 *
 * Why wrk and not autocannon: on a two-core machine the server has one core and the load generator the
 * other, so throughput measures the server only while the generator keeps up with it. autocannon, a Node
 * process, used a whole core (8.1 s of CPU in 8.2 s) to send bare node:http 68,000 requests per second;
 * wrk sent 70,000 with 5.4 s of CPU (measured one after the other, 100 connections). autocannon's core
 * was saturated at the fastest servers' rates, so a server faster than the generator could not show.
 *
 * Every connection of a run draws from one list of requests in turn (a Lua script, `mixScript`), so the
 * proportions of a mix are exact. wrk counts a status ≥ 400 as an error ("Non-2xx or 3xx responses": it
 * lets 3xx through); every request of a mix expects a 2xx.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoadRequest } from './mix.js';

export interface LoadSettings {
  connections: number;
  /** Requests sent per connection before the first answer is awaited (1: no pipelining). */
  pipelining: number;
}

export interface RunResult {
  /** Requests answered per second over the measured run. */
  rps: number;
  total: number;
  latencyAvg: number;
  latencyP50: number;
  latencyP99: number;
  /** Socket errors: connect, read and write. */
  errors: number;
  timeouts: number;
  /** Answers with a status ≥ 400. */
  non2xx: number;
}

/**
 * A Lua string literal holding `text`'s UTF-8 bytes: printable ASCII as it is (but `"` and `\`), every
 * other byte as a decimal escape, the one escape form Lua 5.1 (wrk's LuaJIT) reads for any byte.
 */
function luaString(text: string): string {
  let out = '"';
  for (const byte of Buffer.from(text, 'utf8')) {
    const printable = byte >= 0x20 && byte < 0x7f && byte !== 0x22 && byte !== 0x5c;
    out += printable ? String.fromCharCode(byte) : `\\${String(byte).padStart(3, '0')}`;
  }
  return `${out}"`;
}

/**
 * The Lua script that cycles through `requests`. The requests are formatted in `init`, not at the top of
 * the script: wrk sets the Host header's value only once the thread exists, and node:http answers a
 * request without Host with 400. With pipelining, each `request()` returns that many requests back to back.
 */
export function mixScript(requests: LoadRequest[], pipelining: number): string {
  const formatted = requests.map((r) => {
    const headers = r.headers
      ? `{ ${Object.entries(r.headers)
          .map(([k, v]) => `[${luaString(k)}] = ${luaString(v)}`)
          .join(', ')} }`
      : 'nil';
    const body = r.body === undefined ? 'nil' : luaString(r.body);
    return `  list[#list + 1] = wrk.format(${luaString(r.method)}, ${luaString(r.path)}, ${headers}, ${body})`;
  });
  return [
    'local list = {}',
    'local next = 0',
    'init = function(args)',
    ...formatted,
    'end',
    'local function one()',
    '  next = next + 1',
    '  if next > #list then next = 1 end',
    '  return list[next]',
    'end',
    pipelining <= 1
      ? 'request = one'
      : `request = function()\n  local batch = {}\n  for i = 1, ${pipelining} do batch[i] = one() end\n  return table.concat(batch)\nend`,
    '',
  ].join('\n');
}

/** Writes the script to a fresh temporary directory; returns its path. */
export function writeMixScript(requests: LoadRequest[], pipelining: number): string {
  const path = join(mkdtempSync(join(tmpdir(), 'arbor-wrk-')), 'mix.lua');
  writeFileSync(path, mixScript(requests, pipelining));
  return path;
}

/** A duration as wrk prints it (`812.00us`, `1.23ms`, `2.01s`), in milliseconds. */
function milliseconds(text: string): number {
  const match = /^([\d.]+)(us|ms|s|m|h)$/.exec(text);
  if (!match) return Number.NaN;
  const value = Number(match[1]);
  const unit = match[2] as 'us' | 'ms' | 's' | 'm' | 'h';
  return value * { us: 0.001, ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[unit];
}

/** Reads wrk's report (run with `--latency`). Throws when a figure the benchmark needs is missing. */
export function parseWrkOutput(text: string): RunResult {
  const need = (pattern: RegExp, what: string): RegExpExecArray => {
    const match = pattern.exec(text);
    if (!match) throw new Error(`wrk's output has no ${what}:\n${text}`);
    return match;
  };
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text);
  return {
    rps: Number(need(/Requests\/sec:\s+([\d.]+)/, 'Requests/sec')[1]),
    total: Number(need(/(\d+) requests in /, 'request count')[1]),
    latencyAvg: milliseconds(need(/Latency\s+(\S+)/, 'latency')[1] as string),
    latencyP50: milliseconds(need(/^\s+50%\s+(\S+)\s*$/m, 'latency median (--latency)')[1] as string),
    latencyP99: milliseconds(need(/^\s+99%\s+(\S+)\s*$/m, '99th percentile (--latency)')[1] as string),
    errors: socket ? Number(socket[1]) + Number(socket[2]) + Number(socket[3]) : 0,
    timeouts: socket ? Number(socket[4]) : 0,
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(text)?.[1] ?? 0),
  };
}

/** One wrk run of `seconds` against `url` with the script at `scriptPath`. */
export function runWrk(
  url: string,
  scriptPath: string,
  settings: LoadSettings,
  seconds: number,
): Promise<RunResult> {
  const args = [
    '--threads',
    '1',
    '--connections',
    String(settings.connections),
    '--duration',
    `${seconds}s`,
    '--timeout',
    '10s',
    '--latency',
    '--script',
    scriptPath,
    url,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
    });
    child.once('error', reject);
    child.once('close', (code) => {
      if (code !== 0) return reject(new Error(`wrk exited with ${code}:\n${out}`));
      try {
        const result = parseWrkOutput(out);
        // A figure wrk printed in a form not read here: the run still counts, the report shows NaN.
        if (Object.values(result).some(Number.isNaN)) console.warn(`[wrk] unread figure in:\n${out}`);
        resolve(result);
      } catch (error) {
        reject(error);
      }
    });
  });
}
