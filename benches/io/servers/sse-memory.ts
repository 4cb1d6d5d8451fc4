/**
 * The SSE case's memory probe, answered alike by every SSE server: on the runner's `{ type: 'memory' }`
 * a full collection, then the process's memory. What a stream holds per client is then read without the
 * garbage that a sampled RSS also counts (how much of it there is depends on when V8 last collected).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export interface MemoryAnswer {
  type: 'memory';
  heapUsed: number;
  rss: number;
}

export function answerMemoryProbes(): void {
  // `--expose-gc` set at run time gives a new context its `gc`: the server's command line stays as it is.
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  process.on('message', (message: { type?: string }) => {
    if (message.type !== 'memory') return;
    gc();
    gc();
    const { heapUsed, rss } = process.memoryUsage();
    process.send?.({ type: 'memory', heapUsed, rss } satisfies MemoryAnswer);
  });
}
