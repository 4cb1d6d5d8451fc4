/** Bundles the tasks reference application into `outFile`, its imports of Arbor becoming `arbor`. */
export function bundleTasksApp(outFile: string, arbor: string): Promise<string>;
