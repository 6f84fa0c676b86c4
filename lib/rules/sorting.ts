/**
 * Sorts by a number, highest first. Equal numbers keep the given order (spec 7.6 "equal rates keep the
 * order each side printed", 7.8.4 "equal counts keep API order"); no value sorts last.
 */
export function stableSortDesc<T>(items: readonly T[], valueOf: (item: T) => number | null): T[] {
  const keyed = items.map((item, index) => ({
    item,
    index,
    value: valueOf(item) ?? Number.NEGATIVE_INFINITY,
  }));
  keyed.sort((a, b) => (a.value === b.value ? a.index - b.index : b.value - a.value));
  return keyed.map((k) => k.item);
}
