/**
 * Every route of the reference applications has a doc block ending on the line just above its
 * registration, which is how the OpenAPI exporter attaches annotations (docs/OPENAPI.md): above the call site, or
 * for a chain formatted over lines (`api\n  .post(…)\n  .uploads(…)`, reported at its `.post` line) above
 * the chain's first line, as the exporter reads it. Anything else between would silently detach them.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { registerProducts } from '../../ts/examples/products/app.js';
import { registerTasks } from '../../ts/examples/tasks/app.js';
import { Application } from '../../ts/src/app/index.js';
import { withEngine } from '../app/support/engine.js';

test('each example route is registered on the line right below its doc block', () => {
  const app = new Application(withEngine());
  registerTasks(app);
  registerProducts(app);
  const table = app.routeTable();
  expect(table).toHaveLength(15);
  for (const route of table) {
    const site = route.callSite;
    expect(site, route.pattern).not.toBeNull();
    const lines = readFileSync(site?.file ?? '', 'utf8').split('\n');
    let start = site?.line ?? 0;
    if (/^\s*\.(get|post|put|delete)\(/.test(lines[start - 1] ?? '')) {
      start--;
      expect(lines[start - 1], route.pattern).toMatch(/^\s*(app|api)$/);
    } else expect(lines[start - 1], route.pattern).toMatch(/^\s*(app|api)\.(get|post|put|delete)\(/);
    expect(lines[start - 2]?.trim(), `${route.pattern} at ${site?.file}:${site?.line}`).toBe('*/');
  }
  expect(table.map((r) => r.handlerLocation)).toContain('ProductController.store');
});
