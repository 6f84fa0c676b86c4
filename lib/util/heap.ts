import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * Keeps a long-lived worker's heap near what it really holds (docs/decisions.md, Speed: "Memory").
 * A worker that checks hundreds of runs keeps little (the live heap after a full collection stays
 * at 63-65 MB from the first run to the three-hundredth), but V8 collects the old generation
 * lazily and lets the heap grow with the garbage of every page read and payload parsed: 225 MB a
 * worker at 100 runs, 330 MB at 300. After each run the worker asks this trimmer; when the heap
 * in use is above its threshold it collects once, and the next threshold is twice what survived
 * (never under `floorBytes`), so a run whose DATA really is large is not collected over and over.
 */

const MB = 1024 * 1024;

export interface HeapTrimOptions {
  /** The heap in use below which nothing is done (default 128 MB). */
  floorBytes?: number;
  /** The heap in use now (default: V8's used heap size). */
  heapUsed?: () => number;
  /** A full collection (default: V8's `gc`, exposed as jest-leak-detector does). */
  collect?: () => void;
}

/** A function to call between runs: collects when the heap is over the threshold; true if it did. */
export function heapTrimmer(options: HeapTrimOptions = {}): () => boolean {
  const floor = options.floorBytes ?? 128 * MB;
  const used = options.heapUsed ?? (() => v8.getHeapStatistics().used_heap_size);
  let collect = options.collect;
  let threshold = floor;
  return () => {
    if (used() <= threshold) return false;
    collect ??= exposedGc();
    collect();
    threshold = Math.max(floor, 2 * used());
    return true;
  };
}

/**
 * V8's full collection without `node --expose-gc` (a worker's flags are Playwright's): the flag is
 * set for one new context, which gets `gc`, then unset again (jest-leak-detector does the same).
 * A `gc` the process was started with is used as it is.
 */
function exposedGc(): () => void {
  const existing = (globalThis as { gc?: () => void }).gc;
  if (typeof existing === 'function') return existing;
  v8.setFlagsFromString('--expose-gc');
  try {
    return vm.runInNewContext('gc') as () => void;
  } finally {
    v8.setFlagsFromString('--no-expose-gc');
  }
}
