/**
 * A duration's clock: the monotonic one (`performance.now`), never the wall clock. `Date.now` steps
 * when NTP corrects it or a paused VM resumes, and a duration read across a step back came out
 * negative: a test record whose item duration the verdict schema refuses (`durationMs` ≥ 0), so
 * the run's verdict file was not written and its passing test failed in the record fixture (time
 * audit of 2026-11-28). Returns the elapsed whole milliseconds since it was made, never below 0.
 */
export function stopwatch(now: () => number = () => performance.now()): () => number {
  const started = now();
  return () => Math.max(0, Math.round(now() - started));
}
