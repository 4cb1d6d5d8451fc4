// @medley/router ships no types: the part of its API the benchmark uses.
declare module '@medley/router' {
  export default class MedleyRouter {
    register(path: string): Record<string, number>;
    find(url: string): { store: Record<string, number | undefined>; params: Record<string, string> } | null;
  }
}
