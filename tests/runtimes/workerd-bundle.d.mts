/**
 * Bundles tests/runtimes/`entry` into `outDir` for workerd, `aliases` naming the files the test wrote that it
 * imports; resolves to the bundle's size.
 */
export function bundleWorker(
  outDir: string,
  entry: string,
  aliases: Record<string, string>,
): Promise<{ bytes: number }>;
