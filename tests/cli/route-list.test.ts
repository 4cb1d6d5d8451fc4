/** `route:list`: the table, `--json` parsed and checked, the method and path filters, shadowed routes. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ListedRoute } from '../../ts/src/cli/commands/route-list.js';
import { DemoCopy } from './support.js';

// Every test starts a tsx process: generous on a loaded two-core machine (the default is 30 s).
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

describe('route:list', () => {
  const demo = new DemoCopy();
  beforeAll(() => {
    // GitHub's classic: the first route takes every request meant for the second (ROUTING.md §3.2).
    demo.edit('server.ts', (t) =>
      t.replace(
        'app.run();',
        // Undocumented, so opted out of the demo's validation (a validated route must have a contract).
        `app.get('/repos/:owner/:repo/:archive_format/:ref', (_req, res) => res.json({})).validate(false);
app.get('/repos/:owner/:repo/commits/:ref', (_req, res) => res.json({})).validate(false);
app.run();`,
      ),
    );
  });
  afterAll(() => demo.remove());

  const listJson = async (...args: string[]): Promise<ListedRoute[]> => {
    const run = await demo.arbor(['route:list', '--app', 'server.ts', '--json', ...args]);
    expect(run.code, run.stderr).toBe(0);
    return JSON.parse(run.stdout) as ListedRoute[];
  };

  it('--json lists every route in definition order with its metadata', async () => {
    const routes = await listJson();
    expect(routes.map((r) => r.id)).toEqual(routes.map((_, i) => i));
    const show = routes.find((r) => r.name === 'products.show');
    expect(show).toMatchObject({
      methods: ['GET'],
      pattern: '/api/products/:id<int>',
      template: '/api/products/{id}',
      middleware: [],
      shadowedBy: null,
    });
    expect(show?.registeredAt).toMatch(/^products\/[\w/.-]+\.ts:\d+$/);
    expect(routes.find((r) => r.name === 'products.store')?.middleware).toEqual(['auth']);
    expect(routes.map((r) => r.pattern)).toContain('/api/docs.json');
    const shadowed = routes.find((r) => r.pattern === '/repos/:owner/:repo/commits/:ref');
    expect(shadowed?.shadowedBy).toMatchObject({ pattern: '/repos/:owner/:repo/:archive_format/:ref' });
    expect(shadowed?.shadowedBy?.registeredAt).toMatch(/^server\.ts:\d+$/);
  });

  it('--method filters by method, case-insensitively, several separated by commas', async () => {
    const posts = await listJson('--method', 'post');
    expect(posts.map((r) => r.pattern)).toEqual(['/tasks', '/api/products', '/api/products/:id<int>/image']);
    const writes = await listJson('--method', 'PUT,DELETE');
    expect(writes.every((r) => r.methods.includes('PUT') || r.methods.includes('DELETE'))).toBe(true);
    expect(writes).toHaveLength(4);
  });

  it('--path filters by pattern prefix, and combines with --method', async () => {
    const products = await listJson('--path', '/api/products');
    expect(products.map((r) => r.name)).toEqual([
      'products.index',
      'products.show',
      'products.store',
      'products.update',
      'products.destroy',
      'products.image.store',
      'products.image.show',
    ]);
    const both = await listJson('--path', '/api/products', '--method', 'GET');
    expect(both.map((r) => r.name)).toEqual(['products.index', 'products.show', 'products.image.show']);
    expect(await listJson('--path', '/nothing-here')).toEqual([]);
  });

  it('prints a readable table with the shadowed route called out', async () => {
    const run = await demo.arbor(['route:list', '--app', 'server.ts']);
    expect(run.code).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toMatch(/^METHOD\s+PATH\s+NAME\s+MIDDLEWARE\s+HANDLER$/);
    // The handler column: `Class.method` for controllers, else the registration's file:line.
    expect(run.stdout).toMatch(
      /\nPOST\s+\/api\/products\s+products\.store\s+auth\s+(\w+\.store|products\/[\w/.-]+:\d+)\n/,
    );
    expect(run.stdout).toMatch(/\/repos\/:owner\/:repo\/commits\/:ref \(shadowed\)/);
    expect(run.stdout).toMatch(
      /warning: GET \/repos\/:owner\/:repo\/commits\/:ref \(server\.ts:\d+\) can never match: \/repos\/:owner\/:repo\/:archive_format\/:ref \(server\.ts:\d+\)/,
    );
    expect(run.stdout).toMatch(/\d+ routes, 1 shadowed\n$/);
    expect(run.stdout).not.toContain('\x1b['); // not a terminal: no colour codes
  });

  it('colours only when asked to (FORCE_COLOR), and never with --no-color', async () => {
    const forced = await demo.arbor(['route:list', '--app', 'server.ts'], {
      env: { FORCE_COLOR: '1', NO_COLOR: undefined },
    });
    expect(forced.stdout).toContain('\x1b[');
    const off = await demo.arbor(['route:list', '--app', 'server.ts', '--no-color'], {
      env: { FORCE_COLOR: '1', NO_COLOR: undefined },
    });
    expect(off.code).toBe(0);
    expect(off.stdout).not.toContain('\x1b[');
  });
});
