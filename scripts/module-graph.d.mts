/** A graph: each node and the nodes it depends on. */
export type Graph = Map<string, Set<string>>;

/** An edge known to close a circle, left out of the check until it is gone. */
export interface KnownCircleEdge {
  graph: 'ts rooms' | 'rust';
  /** The crate of a `rust` edge. */
  crate?: string;
  from: string;
  to: string;
  circle: string;
  why: string;
}
export const KNOWN_CIRCLE_EDGES: readonly KnownCircleEdge[];

/** The strongly connected components that hold a circle, each as its sorted nodes. */
export function knots(edges: Graph): string[][];
/** One circle per knot, as the shortest path from its first node back to it. */
export function circles(edges: Graph): string[][];
/** The graph of the groups `groupOf` puts nodes in, `skip(from, to)` edges left out. */
export function groupGraph(
  edges: Graph,
  groupOf: (node: string) => string,
  skip?: (from: string, to: string) => boolean,
): Graph;

/** The relative specifiers a TypeScript file imports (with `types: false`, only those node evaluates). */
export function importSpecifiers(text: string, options?: { types?: boolean }): string[];
/** The file graph of ts/src (paths relative to it). */
export function typeScriptGraph(srcRoot?: string, options?: { types?: boolean }): Graph;
/** A ts/src file's room: its first folder, or the file itself at the top. */
export function typeScriptRoom(file: string): string;
/** The trees the house graph reads, relative to the root (`ts/src`, `benches`, `tests`, …). */
export const HOUSE_TREES: readonly string[];
/** The file graph of every tree of `HOUSE_TREES` under `root` (paths relative to it), across trees too. */
export function houseGraph(root?: string, options?: { types?: boolean }): Graph;
/** The tree of `HOUSE_TREES` a house file belongs to. */
export function houseTree(file: string): string;

/** Rust source with comments (and, by default, literal contents) blanked out, positions kept. */
export function blankRust(text: string, options?: { literals?: boolean }): string;
/** The paths of a `use` tree, each as its segments. */
export function useTreePaths(tree: string): string[][];
/** A Rust file's child modules and the paths it uses, test code left out. */
export function readRustFile(text: string): {
  modules: { name: string; path: string | null; inline: boolean }[];
  paths: string[][];
};
/** The module graph of one crate, with each module's file (relative to the crate). */
export function rustCrateGraph(crateDir: string): { edges: Graph; files: Map<string, string> };
/** A Rust module's room: its top-level module. */
export function rustRoom(module: string): string;
/** Every crate under crates/ with a src/. */
export function rustCrates(cratesDir?: string): { name: string; dir: string }[];

/** Every circle of the house's graphs (known ones aside) and every stale known edge; empty when all is well. */
export function problems(root?: string): string[];
