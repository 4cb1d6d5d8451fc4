/**
 * Every route of the reference applications has a doc block ending on the line just above its call site,
 * which is how the OpenAPI exporter attaches annotations (SPEC §6). A reformatted chain (`app\n  .get(…)`)
 * would silently detach them: this test catches it.
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
  expect(table).toHaveLength(13);
  for (const route of table) {
    const site = route.callSite;
    expect(site, route.pattern).not.toBeNull();
    const lines = readFileSync(site?.file ?? '', 'utf8').split('\n');
    expect(lines[(site?.line ?? 0) - 2]?.trim(), `${route.pattern} at ${site?.file}:${site?.line}`).toBe(
      '*/',
    );
    expect(lines[(site?.line ?? 0) - 1], route.pattern).toMatch(/^\s*(app|api)\.(get|post|put|delete)\(/);
  }
  expect(table.map((r) => r.handlerLocation)).toContain('ProductController.store');
});
