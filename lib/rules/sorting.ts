import { scaled } from './decimal';

/**
 * Sorts by a number, highest first. Equal numbers keep the given order (spec 7.6 "equal rates keep the
 * order each side printed", 7.8.4 "equal counts keep API order"); no value sorts last. Equal as
 * decimal values (docs/rules.md §D6): 30.000000000000004, what a platform computing 0.1 × 3 × 100
 * serialises, is the rate 30 and keeps its printed place beside another 30 (review 59e: the binary
 * noise ordered the platform's ranking, and Profile A failed a swap no screen shows).
 */
export function stableSortDesc<T>(items: readonly T[], valueOf: (item: T) => number | null): T[] {
  const keyed = items.map((item, index) => ({
    item,
    index,
    value: scaled(valueOf(item) ?? Number.NEGATIVE_INFINITY),
  }));
  keyed.sort((a, b) => (a.value === b.value ? a.index - b.index : b.value - a.value));
  return keyed.map((k) => k.item);
}

/**
 * Where two names are tied (equal within the rule's tolerance): on a side where they are tied, that
 * side's order of the two is open (spec 7.3.1 and 7.6 order by value; the platform prints one decimal,
 * 7.1.1, so two values the HTML tells apart may print alike there and keep the API's order). A swap of
 * the two is then no disagreement; only two sides that each order the pair, in opposite ways, disagree
 * (docs/rules.md §D10, 9.5.5).
 */
export type TiedOn = 'both sides' | 'the HTML side' | 'the platform side';

export function tiedOn(html: boolean, platform: boolean): TiedOn | undefined {
  if (html && platform) return 'both sides';
  if (html) return 'the HTML side';
  return platform ? 'the platform side' : undefined;
}
