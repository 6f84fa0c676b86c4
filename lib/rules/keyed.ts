/**
 * Keyed records (brand.platforms, product_ranking, the source options) are read by own property only
 * (docs/rules.md §D5): `record['constructor']` on a plain object is Object itself, and reading
 * `.citation` of it would crash the run. The schema rejects such keys (lib/schema/keys.ts); these
 * lookups keep a context built some other way (evidence read back from JSON, a test) from crashing too.
 */
export function own<V>(record: Readonly<Record<string, V>> | undefined, key: string): V | undefined {
  if (!record || !Object.prototype.hasOwnProperty.call(record, key)) return undefined;
  return record[key];
}
