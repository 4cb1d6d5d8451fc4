/** Bundles tests/runtimes/worker.mjs into `outDir` for workerd; resolves to the bundle's size. */
export function bundleWorker(outDir: string): Promise<{ bytes: number }>;
