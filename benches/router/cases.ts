/** The timed cases, built from the four tables. */
import type { RouteTable } from './routes.js';

export type TableName = 'small' | 'github' | 'saas' | 'generated';

/** Every table, in the order the report shows them. */
export const TABLES: readonly TableName[] = ['small', 'github', 'saas', 'generated'];
export type Mode = 'select' | 'params';

export interface Case {
  id: string;
  table: TableName;
  title: string;
  /** Indices into the table's requests, all answered in one op, in this order. */
  requests: number[];
  /** `'request'`: the report divides the op's time by the number of requests. */
  per: 'op' | 'request';
}

export const MODES: readonly Mode[] = ['select', 'params'];

export function buildCases(tables: Record<TableName, RouteTable>): Case[] {
  const cases: Case[] = [];
  tables.small.requests.forEach((request, i) => {
    cases.push({
      id: `small/${request.label.replaceAll(' ', '-')}`,
      table: 'small',
      title: `12 routes: ${request.label} (${request.method} ${request.path})`,
      requests: [i],
      per: 'op',
    });
  });
  const all = (table: RouteTable): number[] => table.requests.map((_, i) => i);
  cases.push({
    id: 'small/all-together',
    table: 'small',
    title: `12 routes: all ${tables.small.requests.length} requests in one op`,
    requests: all(tables.small),
    per: 'op',
  });
  cases.push({
    id: 'github/all',
    table: 'github',
    title: `GitHub API, ${tables.github.routes.length} routes: every request URL in turn`,
    requests: all(tables.github),
    per: 'request',
  });
  cases.push({
    id: 'saas/all',
    table: 'saas',
    title: `SaaS API (org/project/repo), ${tables.saas.routes.length} routes: every request URL in turn`,
    requests: all(tables.saas),
    per: 'request',
  });
  cases.push({
    id: 'generated/all',
    table: 'generated',
    title: `generated ${tables.generated.routes.length.toLocaleString('en')} routes: ${tables.generated.requests.length} distinct requests in turn`,
    requests: all(tables.generated),
    per: 'request',
  });
  return cases;
}

/** Tables whose registration time and memory are measured. */
export const BUILD_TABLES: readonly TableName[] = ['github', 'saas', 'generated'];
