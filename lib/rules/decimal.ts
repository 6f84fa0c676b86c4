/**
 * Spec 8.2 thresholds (0.05, 0.1, 99, 101.5, 100) are decimal numbers. Binary floating point gets them
 * wrong at the boundary (69.9 + 31.4 + 0.2 is 101.50000000000001), so every threshold comparison is
 * made on scaled integers: a value becomes a whole number of nano-points. Rates are printed with a few
 * decimals at most, so 1e-9 keeps them exact (52.1500004 stays above 52.15), and a sum of scaled
 * integers is exact while it stays below 2^53. A value's own binary form is within half a nano-point of
 * its decimal one below 2^22 points, so the schema refuses any beyond ±4,000,000 (lib/schema/rate.ts
 * `RATE_MAX`).
 * docs/rules.md §D6.
 */
export const SCALE = 1_000_000_000;

/** A value as a whole number of 1e-9 points (the nearest one, so binary noise disappears). */
export function scaled(x: number): number {
  return Math.round(x * SCALE);
}

/** Back from nano-points, for display. */
export function unscaled(n: number): number {
  return n / SCALE;
}

/** The exact decimal sum of values (in nano-points). */
export function scaledSum(values: readonly number[]): number {
  return values.reduce((sum, v) => sum + scaled(v), 0);
}

/** |a − b| in nano-points. */
export function scaledGap(a: number, b: number): number {
  return Math.abs(scaled(a) - scaled(b));
}

/**
 * One value as decimal values, or both no value: 23.4 and 23.400000000000002, what a generator
 * summing doubles serialises, are one figure (item 4's points of one day, spec 2.1; review 59i).
 */
export function sameDecimal(a: number | null, b: number | null): boolean {
  return a === null || b === null ? a === b : scaled(a) === scaled(b);
}

/** |a − b| ≤ limit, on decimal values. */
export function withinDecimal(a: number, b: number, limit: number): boolean {
  return scaledGap(a, b) <= scaled(limit);
}

/** a ≤ b on decimal values. */
export function atMost(a: number, b: number): boolean {
  return scaled(a) <= scaled(b);
}

/** Spec 9.3.1: round(x + 1e-9, 1), on decimal values, in nano-points (a multiple of 0.1 point). */
export function scaledRound1(x: number): number {
  const tenth = SCALE / 10;
  return Math.floor((scaled(x) + 1 + tenth / 2) / tenth) * tenth;
}

/** Spec 9.3.1: round(x + 1e-9, 1) as a number. */
export function round1(x: number): number {
  return Math.round(scaledRound1(x) / (SCALE / 10)) / 10;
}

/** round(x + 1e-9, 2) on decimal values (docs/rules.md § Values at the precision compared). */
export function round2(x: number): number {
  const hundredth = SCALE / 100;
  return Math.floor((scaled(x) + 1 + hundredth / 2) / hundredth) / 100;
}

/** A gap for display: the decimal difference, without binary noise (23.45 − 23.4 is 0.05). */
export function decimalGap(a: number, b: number): number {
  return unscaled(scaledGap(a, b));
}
