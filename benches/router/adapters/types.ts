import type { Answer, Rule } from '../expect.js';
import type { RouteTable } from '../routes.js';

/** A router loaded with one table. Every function here is what the benchmark times or verifies. */
export interface Built {
  /** Selection only: the stored route id, or -1, doing the least work the router's API allows. */
  select(method: string, path: string): number;
  /**
   * The router's usual lookup, then every parameter of the match read by name as a handler would
   * (`names`, in the router's own naming). Returns the route id plus the total length of the values,
   * so the verifier can check it and the benchmark can consume it.
   */
  withParams(method: string, path: string, names: readonly string[]): number;
  /** For verification only: route id and parameters, the wildcard's value under `*`. */
  answer(method: string, path: string): Answer | null;
}

export interface Adapter {
  /** Display name, unique in a run. */
  name: string;
  /** npm package whose version the report shows. */
  pkg: string;
  /** The rule the router documents for competing dynamic routes (see expect.ts). */
  rule: Rule;
  /** What the selection-only figure measures for this router. */
  selection: string;
  /** What the params figure measures. */
  params: string;
  /** The key under which the router reports the trailing wildcard's value. */
  wildcardKey: string;
  /** True when that value keeps the `/` before the wildcard (koa-tree-router). */
  wildcardKeepsSlash?: boolean;
  /** Registers the whole table and does anything needed before the first answer (compile, build). Throws when
   * the router cannot hold the table. */
  build(table: RouteTable): Built;
  /** Caveats for one table (constraints dropped, syntax rewritten), shown in the report. */
  notes(table: RouteTable): string[];
}

export const CONSTRAINTS_DROPPED =
  'no parameter constraints: constrained parameters registered unconstrained (the table is built so that this changes no answer, but the router does less work)';
