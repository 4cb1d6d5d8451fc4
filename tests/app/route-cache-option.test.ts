/**
 * Whether an application uses the route cache is decided from its `routeCache` key and
 * `ARBOR_ROUTE_CACHE` alone — no file is read to decide — and the file is located only when it is used.
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RouteCacheBoot } from '../../ts/src/cache/boot.js';

const FILE = resolve('/tmp/arbor-option.cache');

describe('RouteCacheBoot.configure (the routeCache key and ARBOR_ROUTE_CACHE)', () => {
  const cases: [string, string | boolean | undefined, NodeJS.ProcessEnv, string | null][] = [
    ['neither: off, whatever lies on disk', undefined, {}, null],
    ['the variable names a file', undefined, { ARBOR_ROUTE_CACHE: FILE }, FILE],
    ['the variable says off', undefined, { ARBOR_ROUTE_CACHE: 'off' }, null],
    ['an empty variable is unset', undefined, { ARBOR_ROUTE_CACHE: '' }, null],
    ['false wins over the variable', false, { ARBOR_ROUTE_CACHE: FILE }, null],
    ['a path wins over the variable', FILE, { ARBOR_ROUTE_CACHE: 'off' }, FILE],
    ['true takes the variable’s file', true, { ARBOR_ROUTE_CACHE: FILE }, FILE],
    ['true with the variable off: off', true, { ARBOR_ROUTE_CACHE: 'off' }, null],
  ];
  it.each(cases)('%s', (_why, configured, env, file) => {
    const boot = RouteCacheBoot.configure(configured, env);
    expect(boot === null ? null : boot.file).toBe(file);
  });

  it('true without the variable: the default location, found when first needed', () => {
    const boot = RouteCacheBoot.configure(true, {});
    expect(boot?.file).toMatch(/[/\\]\.arbor[/\\]routes\.cache$/);
  });

  it('a cache that is on but has no file yet compiles, without a warning', () => {
    const boot = RouteCacheBoot.configure('/nonexistent/arbor/routes.cache', {});
    const warnings: Error[] = [];
    const listener = (w: Error) => warnings.push(w);
    process.on('warning', listener);
    try {
      expect(boot?.load([], { order: 'definition', trailingSlash: true })).toBeNull();
    } finally {
      process.off('warning', listener);
    }
    expect(warnings).toEqual([]);
  });
});
