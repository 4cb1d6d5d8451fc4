/**
 * Path traversal: a table of attack encodings, sent over raw sockets (fetch would resolve `..` and
 * re-encode escapes before anything left the client) to three ways of serving one root — `serveStatic`
 * at `/`, `serveStatic` under `/assets`, and a route answering `res.sendFile(req.param('*'), { root })` —
 * on the server of the project (node:http in `arbor`, Arbor's own in `arbor-server`). Every answer must
 * be a refusal (400, 403, 404) or a redirect that stays inside the mount, and no body may carry the
 * secret next to the root, a dotfile's content inside it, or /etc/passwd.
 *
 * The root is a copy of tests/app/fixtures/static made per run, because it needs what git will not
 * store: a `.git/config` inside the root, and a directory named `evil.example` (the open-redirect row).
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Application, HttpError, serveStatic } from '../../ts/src/app/index.js';
import { requestPathToFile } from '../../ts/src/helpers/static-files.js';
import { exchange, type RawResponse, request } from '../support/raw-http.js';
import { withEngine } from './support/engine.js';
import { listen } from './support/transport.js';

const FIXTURE = resolve(import.meta.dirname, 'fixtures/static');
const SECRET = 'SECRET-OUTSIDE-ROOT-7f3a9c';

/** What must never be in an answer: the file beside the root, dotfiles inside it, the system's users. */
const LEAKS = [SECRET, 'DOTFILE-SECRET', 'root:x:0:0'];
const leaked = (body: Buffer): string[] => LEAKS.filter((marker) => body.toString('latin1').includes(marker));

/**
 * Each a path after the mount's prefix, as sent on the request line. The file to reach is `secret.txt`
 * one level above the root (or /etc/passwd, or a dotfile in the root).
 */
const ATTACKS: string[] = [
  // Dot-dot, plain and percent-encoded in every spelling.
  '/../secret.txt',
  '/..',
  '/%2e%2e/secret.txt',
  '/%2E%2E/secret.txt',
  '/.%2e/secret.txt',
  '/%2e./secret.txt',
  '/./../secret.txt',
  '/docs/../../secret.txt',
  '/docs/%2e%2e/%2e%2e/secret.txt',
  '/hello.txt/../../secret.txt',
  '/../../../../../../../../etc/passwd',
  // Encoded separators: a slash or a backslash inside one segment.
  '/%2e%2e%2fsecret.txt',
  '/..%2fsecret.txt',
  '/..%2Fsecret.txt',
  '/%2e%2e%5csecret.txt',
  '/..%5csecret.txt',
  '/%5c..%5csecret.txt',
  '/%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  // Raw backslashes (a separator on Windows).
  '/..\\secret.txt',
  '/\\..\\secret.txt',
  // Double encoding: decoded once, `%2e%2e` is a name, not a step up.
  '/%252e%252e/secret.txt',
  '/%252e%252e%252fsecret.txt',
  '/..%252fsecret.txt',
  // Overlong and non-standard UTF-8 dots and slashes (malformed to a strict decoder).
  '/%c0%ae%c0%ae/secret.txt',
  '/..%c0%afsecret.txt',
  '/%e0%80%ae%e0%80%ae/secret.txt',
  '/%u002e%u002e/secret.txt',
  '/%ef%bc%8e%ef%bc%8e/secret.txt',
  // NUL bytes: a C-level truncation of the name.
  '/../secret.txt%00',
  '/hello.txt%00.png',
  '/%00../secret.txt',
  '/.%00./secret.txt',
  // Odd dot runs that some normalisers collapse.
  '/....//secret.txt',
  '/..../secret.txt',
  '/..;/secret.txt',
  // Absolute paths.
  '//etc/passwd',
  '/%2fetc%2fpasswd',
  '/%2Fetc/passwd',
  // Dotfiles inside the root.
  '/.env',
  '/%2eenv',
  '/%2Eenv',
  '/docs/../.env',
  '/.git/config',
  '/%2egit/config',
  '/.git%2fconfig',
  // A directory named like a host: its redirect must not become `//evil.example/` (another host).
  '//evil.example',
  // A dot segment naming a directory: a redirect, inside.
  '/docs/.',
];

interface Mount {
  name: string;
  prefix: string;
  setup(app: Application, root: string): void;
}

const MOUNTS: Mount[] = [
  { name: 'serveStatic at /', prefix: '', setup: (app, root) => app.middleware(serveStatic(root)) },
  {
    name: 'serveStatic under /assets',
    prefix: '/assets',
    setup: (app, root) => app.middleware(serveStatic(root, { prefix: '/assets' })),
  },
  {
    name: "res.sendFile(req.param('*'), { root })",
    prefix: '/files',
    setup: (app, root) => app.get('/files/*', (req, res) => res.sendFile(req.param('*'), { root })),
  },
];

let base: string;
let root: string;

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'arbor-traversal-'));
  cpSync(FIXTURE, base, { recursive: true });
  root = join(base, 'public');
  mkdirSync(join(root, '.git'));
  writeFileSync(join(root, '.git', 'config'), '[core]\n\tDOTFILE-SECRET = git-config-in-root\n');
  mkdirSync(join(root, 'evil.example'));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

test('the fixture has what the attacks aim at', () => {
  expect(readFileSync(join(base, 'secret.txt'), 'utf8')).toContain(SECRET);
  expect(readFileSync(join(root, '.env'), 'utf8')).toContain('DOTFILE-SECRET');
  expect(readFileSync(join(root, '.git', 'config'), 'utf8')).toContain('DOTFILE-SECRET');
  expect(existsSync('/etc/passwd')).toBe(true);
  expect(ATTACKS.length).toBeGreaterThanOrEqual(25);
});

describe.each(MOUNTS)('$name', (mount) => {
  let port: number;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const app = new Application(withEngine());
    mount.setup(app, root);
    // A route that leaks on purpose: the check below must see it (a check that cannot fail is none).
    app.get('/leak', (_req, res) => res.sendFile('secret.txt', { root: base }));
    const server = await listen(app);
    port = server.port;
    close = () => server.server.closeGracefully(500);
  });
  afterAll(() => close());

  const get = (target: string): Promise<RawResponse> => exchange(port, request('GET', target));

  test('controls: a file is served by its plain and its encoded name, and the leak check sees a leak', async () => {
    const plain = await get(`${mount.prefix}/hello.txt`);
    expect([plain.status, plain.body.toString()]).toEqual([200, 'Hello, files!\n']);
    const encoded = await get(`${mount.prefix}/%68ello.txt`);
    expect([encoded.status, encoded.body.toString()]).toEqual([200, 'Hello, files!\n']);
    const leak = await get('/leak');
    expect(leak.status).toBe(200);
    expect(leaked(leak.body)).toEqual([SECRET]);
  });

  test.each(ATTACKS)('%s', async (attack) => {
    const reply = await get(`${mount.prefix}${attack}`);
    expect(leaked(reply.body)).toEqual([]);
    if (reply.status === 301 || reply.status === 308) {
      // A redirect must stay on this host and under the mount, dot segments resolved as a browser would.
      const target = new URL(reply.headers.get('location') ?? '', 'http://127.0.0.1');
      expect(target.host).toBe('127.0.0.1');
      expect(target.pathname.startsWith(`${mount.prefix}/`)).toBe(true);
      return;
    }
    expect([400, 403, 404]).toContain(reply.status);
  });
});

/** The path check alone, on the decoded form send will see (or the refusal). */
describe('requestPathToFile', () => {
  const outcome = (raw: string): string | number => {
    try {
      return requestPathToFile(raw);
    } catch (error) {
      if (error instanceof HttpError) return error.status;
      throw error;
    }
  };

  test.each([
    ['/hello.txt', '/hello.txt'],
    ['/%68ello.txt', '/hello.txt'],
    ['/with%20space.txt', '/with%20space.txt'],
    ['/caf%C3%A9', '/caf%C3%A9'],
    ['', ''],
    ['/docs/', '/docs/'],
    // One decoding only: the second layer stays a name.
    ['/%252e%252e', '/%252e%252e'],
    ['/..', 403],
    ['/%2e%2e/x', 403],
    ['/a/%2E%2e', 403],
    ['/..%2fx', 400],
    ['/a%5cb', 400],
    ['/a\\b', 400],
    ['/a%00', 400],
    ['/%c0%ae', 400],
    ['/%zz', 400],
    ['/%', 400],
  ] as const)('%j → %j', (raw, expected) => {
    expect(outcome(raw)).toBe(expected);
  });
});
