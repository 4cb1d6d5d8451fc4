/** What run.ts hands every case: how to start servers, which rows to run, and how to describe the run. */
import { describeEnvironment, type Environment } from '../http/environment.js';
import { type Contender, contendersOf, type Launch, root } from './harness.js';
import type { IoCase } from './servers/setup.js';

export interface CaseContext {
  launch: Launch;
  quick: boolean;
  /** Rows to run (`--only`), or null for all. */
  only: ReadonlySet<string> | null;
}

/** The case's rows after `--only`; the anchor always stays, since every ratio needs it. */
export function rowsOf(kase: IoCase, context: CaseContext): Contender[] {
  return contendersOf(kase).filter((c) => c.anchor || context.only === null || context.only.has(c.name));
}

export function environmentOf(context: CaseContext, rows: Contender[], client: string): Environment {
  return describeEnvironment(root, context.launch.node, rows, client);
}
