import { decimalGap, scaled, scaledGap, scaledRound1, SCALE, round1 as decimalRound1 } from './decimal';
import type { Profile, Verdict } from './types';

/** Spec 8.2: Profile A tolerance, 0.05 points. */
export const PROFILE_A_TOLERANCE = 0.05;
/** Spec 9.3: Profile B, 0.1 point after rounding both sides to 1 decimal. */
export const PROFILE_B_TOLERANCE = 0.1;

/** Spec 9.3.1: round(x + 1e-9, 1), on decimal values (lib/rules/decimal.ts). */
export function round1(x: number): number {
  return decimalRound1(x);
}

/** A gap as a decimal number, so 23.45 - 23.4 is 0.05 and not 0.0500000000000007. */
export function cleanGap(x: number): number {
  return decimalGap(Math.abs(x), 0);
}

/**
 * Spec 9.3.4 "when the platform prints an integer" is about the printed form: `36` and `"36"` (or
 * `"36%"`) are integer prints, `"36.0"` is not. A number has no printed decimals beyond its value
 * (docs/rules.md §D15).
 */
export function isIntegerPrint(printed: unknown): boolean {
  if (typeof printed === 'number') return Number.isInteger(printed);
  return typeof printed === 'string' && /^\s*[+-]?\d+\s*%?\s*$/.test(printed);
}

export interface PercentOptions {
  /** Spec 9.3.4: brand exposure rate, platform prints an integer: equal integers also pass (Profile B). */
  integerRule?: boolean;
  /**
   * Spec 9.3.4: the platform value as it was printed (snapshot `brand_exposure_rate_printed`). Without
   * it the integer rule falls back to the number itself (rows built without the schema).
   */
  platformPrinted?: string;
  /** Spec 7.6: an empty HTML cell against the platform's `-` (or empty) is not a difference (item 5). */
  bothEmptyAgree?: boolean;
}

export interface PercentComparison {
  verdict: Verdict;
  gap: number | null;
  tolerance: string;
  note?: string;
}

export function toleranceText(profile: Profile): string {
  return profile === 'A' ? '≤ 0.05 (7.1.2)' : '≤ 0.1 after round(x,1) (9.3)';
}

/** Spec 9.3.4: Math.round(x + 1e-9) on decimal values. */
function roundToInteger(x: number): number {
  return Math.floor((scaled(x) + 1 + SCALE / 2) / SCALE);
}

/** Spec 9.3 (Profile B): gap after rounding both sides to 1 decimal, in points. */
export function roundedGap(html: number, platform: number): number {
  return Math.abs(scaledRound1(html) - scaledRound1(platform)) / SCALE;
}

/** Within the profile's tolerance, on decimal values (7.1.2 for A, 9.3.2 for B). */
export function withinProfile(html: number, platform: number, profile: Profile): boolean {
  if (profile === 'A') return scaledGap(html, platform) <= scaled(PROFILE_A_TOLERANCE);
  return Math.abs(scaledRound1(html) - scaledRound1(platform)) <= scaled(PROFILE_B_TOLERANCE);
}

/**
 * Compares two percentages by the profile's rule (spec 7.1 for A, 9.3 for B). Numbers are compared,
 * never decimal places (7.1.1), and every threshold on decimal values (8.2, lib/rules/decimal.ts).
 * A missing value on either side fails, naming the side.
 */
export function comparePercent(
  html: number | null,
  platform: number | null,
  profile: Profile,
  options: PercentOptions = {},
): PercentComparison {
  const tolerance = toleranceText(profile);
  if (html === null || platform === null) {
    if (html === null && platform === null && options.bothEmptyAgree) {
      return { verdict: 'pass', gap: null, tolerance, note: 'both empty (HTML empty cell, platform 「-」)' };
    }
    const side =
      html === null && platform === null
        ? 'either side'
        : html === null
          ? 'the HTML side'
          : 'the platform side';
    return { verdict: 'fail', gap: null, tolerance, note: `no value on ${side}` };
  }
  if (profile === 'A') {
    const gap = decimalGap(html, platform);
    return { verdict: withinProfile(html, platform, 'A') ? 'pass' : 'fail', gap, tolerance };
  }
  const gap = roundedGap(html, platform);
  if (withinProfile(html, platform, 'B')) return { verdict: 'pass', gap, tolerance };
  const integerPrint =
    options.platformPrinted !== undefined
      ? isIntegerPrint(options.platformPrinted)
      : Number.isInteger(platform);
  if (options.integerRule && integerPrint && roundToInteger(html) === roundToInteger(platform)) {
    return {
      verdict: 'pass',
      gap,
      tolerance,
      note: 'platform prints an integer; equal after rounding to an integer (9.3.4)',
    };
  }
  const printed =
    options.integerRule && options.platformPrinted !== undefined && !integerPrint
      ? `platform printed ${JSON.stringify(options.platformPrinted)}, not an integer: 9.3.4 does not apply`
      : undefined;
  return { verdict: 'fail', gap, tolerance, ...(printed ? { note: printed } : {}) };
}
