/**
 * schemathesis, an independent property-based API fuzzer, against the demo (ts/examples/server.ts: the
 * tasks and products APIs) and the articles application (ts/examples/articles/server.ts: bindings,
 * constrained parameters, bounds, components, a 422 and an error shape of its own), each as a real process,
 * driven by the OpenAPI document it serves at `/api/docs.json`. It generates
 * requests from the document (valid and invalid ones, unsupported methods, stateful sequences that follow
 * the created resources) and fails on any answer that contradicts it: a 5xx, an undocumented status or
 * content type, a body that does not match its schema, an unsupported method not answered 405, an `Allow`
 * header that disagrees with the document.
 *
 * A fixed seed and a time budget keep it bounded (40 s for the demo, 25 s for the articles by default). Hunt longer with
 * `ARBOR_SCHEMATHESIS_SECONDS=600 node_modules/.bin/vitest run tests/e2e/schemathesis.test.ts`, or another
 * seed with `ARBOR_SCHEMATHESIS_SEED=7`. schemathesis is installed once per machine, outside the checkout,
 * by scripts/ensure-schemathesis.mjs; without Python or PyPI this test fails with what to install, it
 * never skips.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
// @ts-expect-error -- a plain ESM build script, without type declarations.
import { ensureSchemathesis, SCHEMATHESIS_VERSION } from '../../scripts/ensure-schemathesis.mjs';
import { assertPresent } from '../support/prerequisites.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const SECONDS =
  process.env.ARBOR_SCHEMATHESIS_SECONDS === undefined
    ? undefined
    : Number(process.env.ARBOR_SCHEMATHESIS_SECONDS);
const SEED = process.env.ARBOR_SCHEMATHESIS_SEED ?? '20261123';
const TOKEN = 'schemathesis-token';
const CHECKS = [
  'not_a_server_error',
  'status_code_conformance',
  'content_type_conformance',
  'response_schema_conformance',
  'unsupported_method',
  'allow_header_conformance',
];

interface Run {
  code: number | null;
  output: string;
}

/** Runs `command` to completion, output interleaved; never rejects. */
function run(command: string, args: string[], cwd: string, killAfterMs: number): Promise<Run> {
  return new Promise((resolve) => {
    let output = '';
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: -1, output: `${output}\n${error.message}` });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** An application to fuzz: its server, and where its document's server URL puts the API. */
interface Target {
  name: string;
  entry: string;
  /** The path the document's `servers` URL carries (`/api` when the paths are relative to it). */
  basePath: string;
  seconds: number;
}

const TARGETS: Target[] = [
  { name: 'the demo', entry: 'ts/examples/server.ts', basePath: '', seconds: SECONDS ?? 40 },
  {
    name: 'the articles application',
    entry: 'ts/examples/articles/server.ts',
    basePath: '/api',
    seconds: SECONDS ?? 25,
  },
];

describe.each(TARGETS)(
  `schemathesis ${SCHEMATHESIS_VERSION} against $name`,
  ({ entry, basePath, seconds }) => {
    let demo: ChildProcess | undefined;
    let base = '';
    let log = '';
    let st = '';
    const work = mkdtempSync(join(tmpdir(), 'arbor-schemathesis-'));

    beforeAll(async () => {
      // The demo runs the WebAssembly engine; a missing build is a failure here, not a skip.
      assertPresent(
        existsSync(join(root, 'ts/src/engine/wasm-pkg/arbor_wasm.js'))
          ? null
          : 'the wasm build (npm run build)',
      );
      st = ensureSchemathesis();
      demo = spawn(process.execPath, ['--import', 'tsx', entry], {
        cwd: root,
        env: { ...process.env, PORT: '0', API_TOKEN: TOKEN, ARBOR_NO_LISTEN: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      base = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the demo printed no banner:\n${log}`)), 30_000);
        const read = (chunk: Buffer) => {
          log += chunk.toString();
          const match = /listening on http:\/\/[^:]+:(\d+)/.exec(log);
          if (match) {
            clearTimeout(timer);
            resolve(`http://127.0.0.1:${match[1]}`);
          }
        };
        demo?.stdout?.on('data', read);
        demo?.stderr?.on('data', read);
        demo?.on('exit', (code) => reject(new Error(`the demo exited with ${code}:\n${log}`)));
      });
    }, 300_000);

    afterAll(() => {
      if (demo !== undefined && demo.exitCode === null) demo.kill('SIGKILL');
      rmSync(work, { recursive: true, force: true });
    });

    test(
      `finds no failure in ${seconds} s (seed ${SEED})`,
      async () => {
        const document = await fetch(`${base}/api/docs.json`);
        expect(document.status).toBe(200);
        const started = Date.now();
        // In a temporary directory: schemathesis keeps its example database (.hypothesis/) in the cwd.
        const result = await run(
          st,
          [
            'run',
            `${base}/api/docs.json`,
            '--url',
            `${base}${basePath}`,
            '--checks',
            CHECKS.join(','),
            '--seed',
            SEED,
            '--max-time',
            String(seconds),
            '--workers',
            '1',
            '--header',
            `Authorization: Bearer ${TOKEN}`,
            '--request-timeout',
            '10',
          ],
          work,
          (seconds + 90) * 1000,
        );
        const took = ((Date.now() - started) / 1000).toFixed(1);
        const summary = result.output.split('\n').filter((line) => /generated|passed|failed|Seed/.test(line));
        console.log(`[schemathesis] ${entry} ${took} s: ${summary.map((line) => line.trim()).join(' | ')}`);
        expect(result.code, `schemathesis failed (exit ${result.code}):\n${result.output}`).toBe(0);
        expect(result.output).toMatch(/\d+ generated, \d+ passed/);
        // The request log is the demo's metrics: no 5xx line, no stack trace.
        const serverErrors = log
          .split('\n')
          .filter((line) => / 5\d\d [\d.]+ms$/.test(line) || /^\s+at /.test(line));
        expect(serverErrors, log).toEqual([]);
      },
      (seconds + 120) * 1000,
    );
  },
);
