/**
 * Request counters of the demo (`GET /__demo/stats`): per project, per company batch list, `_auth`,
 * `_foreign` (the foreign login origin) and `_hostile` (bytes a hostile answer handed to the socket).
 * Requests are counted whether or not they are authorized; no credential is ever recorded.
 */
export class Stats {
  private since = new Date().toISOString();
  private counts: Record<string, Record<string, number>> = {};

  count(key: string, kind: string, by = 1): void {
    const bucket = (this.counts[key] ??= {});
    bucket[kind] = (bucket[kind] ?? 0) + by;
  }

  snapshot(): Record<string, unknown> {
    return { ...this.counts, _since: this.since };
  }

  reset(): void {
    this.since = new Date().toISOString();
    this.counts = {};
  }
}
