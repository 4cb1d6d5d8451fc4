/**
 * What a run file (`benches/results/router-node<major>.json`) holds, and the one rule by which Arbor is
 * compared with the other routers, shared by the report's tables, its summary and its chart.
 *
 * The rule: Arbor is compared with the fastest other router that selects the intended route for every
 * request of the table (verification `exact` or `split`). A router that splits a parameter differently
 * on a few requests stays in that comparison, because a user choosing a router compares against it
 * anyway; it is marked, and the ratio against the fastest router that also agrees on every parameter
 * (`exact`) is given beside it. A router that selects a wrong route, finds nothing where a route
 * matches, or cannot register the table is shown but never compared with. So is a router whose own order
 * answers some request with another route than the one the request was made for (hono's definition order
 * on the GitHub table): correct by its rule, but not the same work. Arbor's default order does that on
 * GitHub too; its figure is kept and marked, and the summary gives `arbor (specificity)` beside it.
 */
import type { Case, Mode, TableName } from './cases.js';
import type { Rule } from './expect.js';
import type { Machine } from './system.js';
import type { Agreement, TableVerification } from './verify.js';

export interface RunFile {
  label: string;
  machine: Machine;
  date: string;
  quick: boolean;
  rounds: number;
  /** Every router timed in one process per round, in alternating slices (absent in older files: separate). */
  paired?: boolean;
  arborEngine: string;
  arborError: string | null;
  versions: Record<string, string>;
  /** Size of each table (absent in older files). */
  tables?: Partial<Record<TableName, { routes: number; requests: number }>>;
  adapters: {
    name: string;
    pkg: string;
    arbor: boolean;
    rule: Rule;
    selection: string;
    params: string;
    notes: Partial<Record<TableName, string[]>>;
  }[];
  cases: Case[];
  verification: Record<string, Partial<Record<TableName, TableVerification>>>;
  /** caseId → mode → adapter → ns (median over rounds of the per-round p50; avg likewise). */
  timings: Record<
    string,
    Partial<Record<Mode, Record<string, { p50: number; avg: number; rounds: number[] }>>>
  >;
  registration: Partial<Record<TableName, Record<string, number>>>;
  /** Fresh processes per router the registration figures are the median of (absent: one, before 2026-11-26). */
  registrationProcesses?: number;
  /** When the registration figures were measured again, every router, after the timed run (absent: with it). */
  registrationDate?: string;
  memory: Partial<Record<TableName, Record<string, { heapUsed: number; external: number; rss: number }>>>;
  errors: string[];
}

export type Status = Agreement | 'missing';

export function status(run: RunFile, adapter: string, table: TableName): Status {
  const v = run.verification[adapter]?.[table];
  if (v === undefined) return 'missing';
  if (v.agreement !== undefined) return v.agreement;
  if (v.ok) return 'exact';
  return v.reason?.startsWith('cannot register') ? 'unregistered' : 'wrong';
}

/** True when the router selects the route its rule selects for every request of the table. */
export const sameRoute = (s: Status): boolean => s === 'exact' || s === 'split';

/** How many requests the router's own order answers with another route than the one they were made for. */
export function unintended(run: RunFile, adapter: string, table: TableName): number {
  return run.verification[adapter]?.[table]?.unintended?.length ?? 0;
}

export interface Peers {
  /** The fastest other router selecting the intended route everywhere: the headline comparison. */
  same: { name: string; value: number; split: boolean } | null;
  /** The fastest other router agreeing on every route and parameter (the same one when `same` is exact). */
  exact: { name: string; value: number } | null;
}

/** The figures Arbor's are compared with in one row (`values`: router → figure, lower is better). */
export function fastestPeers(run: RunFile, values: Record<string, number>, table: TableName): Peers {
  const peers: Peers = { same: null, exact: null };
  for (const a of run.adapters) {
    const v = values[a.name];
    if (a.arbor || v === undefined) continue;
    const s = status(run, a.name, table);
    if (unintended(run, a.name, table) > 0) continue;
    if (sameRoute(s) && (peers.same === null || v < peers.same.value))
      peers.same = { name: a.name, value: v, split: s === 'split' };
    if (s === 'exact' && (peers.exact === null || v < peers.exact.value))
      peers.exact = { name: a.name, value: v };
  }
  return peers;
}

export interface Ratio {
  /** Fastest other (same route) ÷ Arbor; null when either side is missing or Arbor is not exact. */
  ratio: number | null;
  peer: string | null;
  /** True when `peer` splits parameters differently on some request. */
  split: boolean;
  /** Fastest exactly agreeing ÷ Arbor, when that router is not `peer`. */
  exactRatio: number | null;
  exactPeer: string | null;
  /** Requests this Arbor variant's order answers with another route than the one they were made for. */
  unintended: number;
}

/** Arbor's ratios in one row (> 1: Arbor faster, or smaller). */
export function ratioOf(
  run: RunFile,
  values: Record<string, number>,
  table: TableName,
  arbor: string,
): Ratio {
  const peers = fastestPeers(run, values, table);
  const v = values[arbor];
  const ok = v !== undefined && status(run, arbor, table) === 'exact';
  const of = (peer: { value: number } | null): number | null => (ok && peer ? peer.value / v : null);
  const differs = peers.same?.split === true;
  return {
    ratio: of(peers.same),
    peer: peers.same?.name ?? null,
    split: differs,
    exactRatio: differs ? of(peers.exact) : null,
    exactPeer: differs ? (peers.exact?.name ?? null) : null,
    unintended: unintended(run, arbor, table),
  };
}

export interface TimingRow {
  id: string;
  title: string;
  table: TableName;
  values: Record<string, number>;
}

/** One row per timed case of `mode`: the p50 of every router. */
export function timingRows(run: RunFile, mode: Mode): TimingRow[] {
  return run.cases
    .filter((c) => run.timings[c.id]?.[mode])
    .map((c) => {
      const values: Record<string, number> = {};
      for (const [name, t] of Object.entries(run.timings[c.id]?.[mode] ?? {})) values[name] = t.p50;
      return {
        id: c.id,
        title: `${c.title}${c.per === 'request' ? ' — ns per request' : ''}`,
        table: c.table,
        values,
      };
    });
}

/** Arbor's (default router's) ratio per case: the summary's and the chart's data. */
export function arborRatios(run: RunFile, mode: Mode, arbor = 'arbor'): ({ id: string } & Ratio)[] {
  return timingRows(run, mode).map((row) => ({ id: row.id, ...ratioOf(run, row.values, row.table, arbor) }));
}
