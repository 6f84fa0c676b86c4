/**
 * Keyed records (brand.platforms, product_ranking, the source options) are read by own property only:
 * `record['constructor']` on a plain object is Object itself, and reading `.citation` of it crashed
 * the run (issue 8 case 11). The schema rejects such keys (lib/schema/keys.ts); these lookups keep a
 * context built some other way (evidence read back from JSON, a test) from crashing too.
 */
export function own<V>(record: Readonly<Record<string, V>> | undefined, key: string): V | undefined {
  if (!record || !Object.prototype.hasOwnProperty.call(record, key)) return undefined;
  return record[key];
}

export function ownIn<V>(record: ReadonlyMap<string, V> | undefined, key: string): V | undefined {
  return record?.get(key);
}
