import v8 from 'node:v8';
import { expect, test } from './test-type';
import { heapTrimmer } from '../../lib/util/heap';

/**
 * A worker's heap between runs (lib/util/heap.ts, docs/decisions.md Speed "Memory"): one full
 * collection when the heap in use has grown over the threshold, none below it, and a threshold that
 * follows what survives, so a run with a really large DATA is not collected after every run.
 */

const MB = 1024 * 1024;

function fakeHeap(floorBytes = 128 * MB) {
  const heap = { used: 0, live: 0, collections: 0 };
  const trim = heapTrimmer({
    floorBytes,
    heapUsed: () => heap.used,
    collect: () => {
      heap.collections++;
      heap.used = heap.live;
    },
  });
  return { heap, trim };
}

test('below the floor nothing is collected; above it, one collection', () => {
  const { heap, trim } = fakeHeap();
  heap.live = 60 * MB;
  heap.used = 128 * MB;
  expect(trim()).toBe(false);
  heap.used = 129 * MB;
  expect(trim()).toBe(true);
  expect(heap.collections).toBe(1);
  expect(heap.used).toBe(60 * MB);
});

test('the next threshold is twice what survived, never under the floor', () => {
  const { heap, trim } = fakeHeap();
  // A run with a large DATA: 200 MB survive the collection.
  heap.live = 200 * MB;
  heap.used = 300 * MB;
  expect(trim()).toBe(true);
  heap.used = 390 * MB; // under 2 × 200 MB: left to V8
  expect(trim()).toBe(false);
  heap.used = 401 * MB;
  expect(trim()).toBe(true);
  expect(heap.collections).toBe(2);
  // Back to a small live heap: the threshold falls back to the floor, not under it.
  heap.live = 20 * MB;
  heap.used = 401 * MB;
  expect(trim()).toBe(true);
  heap.used = 100 * MB;
  expect(trim()).toBe(false);
  heap.used = 129 * MB;
  expect(trim()).toBe(true);
  expect(heap.collections).toBe(4);
});

test("V8's own collection runs without --expose-gc and frees what nothing holds", () => {
  const gcBefore = (globalThis as { gc?: unknown }).gc;
  const used = () => v8.getHeapStatistics().used_heap_size;
  // Rows nothing holds once the function returns (a parsed payload after its run). About 60 MB,
  // most of it promoted to the old space while the array holds it, so the scavenges V8 runs on its
  // own cannot take the heap back under the 10 MB this test needs to see (300,000 rows left
  // 10.4 MB once and failed the check below).
  const rows = () => Array.from({ length: 1_000_000 }, (_, i) => ({ i, s: `row ${i}` })).length;
  // From a collected heap: the garbage earlier tests of this worker left could otherwise be taken
  // by a collection V8 runs during the allocation, and the heap end lower than it began (-97 MB
  // once on CI).
  expect(heapTrimmer({ floorBytes: 1 })()).toBe(true);
  const before = used();
  expect(rows()).toBe(1_000_000);
  const withGarbage = used();
  expect(withGarbage - before, 'the garbage is still on the heap').toBeGreaterThan(10 * MB);
  const trim = heapTrimmer({ floorBytes: 1 });
  expect(trim()).toBe(true);
  expect(used()).toBeLessThan(withGarbage - 10 * MB);
  // Nothing is left on the global object for the rest of the process.
  expect((globalThis as { gc?: unknown }).gc).toBe(gcBefore);
});
