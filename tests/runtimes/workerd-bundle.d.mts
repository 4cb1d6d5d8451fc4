/** Bundles tests/runtimes/worker.mjs (importing `contracts`) into `outDir` for workerd; resolves to the bundle's size. */
export function bundleWorker(outDir: string, contracts: string): Promise<{ bytes: number }>;
