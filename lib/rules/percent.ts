import {
  decimalGap,
  round2,
  scaled,
  scaledGap,
  scaledRound1,
  SCALE,
  round1 as decimalRound1,
} from './decimal';
import { PASS_BY, type Profile, type Verdict } from './types';

/** Spec 8.2: Profile A tolerance, 0.05 points. */
export const PROFILE_A_TOLERANCE = 0.05;
/** Spec 9.3: Profile B, 0.1 point after rounding both sides to 1 decimal. */
export const PROFILE_B_TOLERANCE = 0.1;

/** Spec 9.3.1: round(x + 1e-9, 1), on decimal values (lib/rules/decimal.ts). */
export function round1(x: number): number {
  return decimalRound1(x);
}

/**
 * A value the suite computes (a share, value / sum × 100) kept at the precision its profile compares,
 * so a row never carries binary noise such as 16.754983598284127 (docs/rules.md § Values at the
 * precision compared): Profile A two decimals, the HTML's printed decimals (7.1.1) and the step of its
 * 0.05 tolerance; Profile B one decimal, the 9.3.1 rounding applied once to the exact value (rounding a
 * two-decimal rounding again would move x.x45… up a tenth).
 */
export function atComparedPrecision(x: number, profile: Profile): number {
  return profile === 'A' ? round2(x) : round1(x);
}

/**
 * Spec 9.3.4 "when the platform prints an integer", read by value for every encoding the contract
 * permits: the platform's value is a whole number. JSON cannot tell 36.0 from 36 once parsed, so the
 * number 36.0, the number 36, and the strings "36", "36.0", "36%" and "36.00%" are all integer prints;
 * 36.5 and "36.5" are not (docs/rules.md §D15).
 */
export function isIntegerPrint(printed: unknown): boolean {
  if (typeof printed === 'number') return isWholeDecimal(printed);
  if (typeof printed !== 'string') return false;
  const match = /^\s*([+-]?(?:\d+(?:\.\d*)?|\.\d+))\s*%?\s*$/.exec(printed);
  return match !== null && isWholeDecimal(Number.parseFloat(match[1]!));
}

/**
 * A whole number on the decimal grid every threshold uses (docs/rules.md §D6): 30.000000000000004, what
 * a platform computing 0.1 × 3 × 100 in binary floating point serialises, is the whole number 30.
 */
function isWholeDecimal(x: number): boolean {
  return Number.isFinite(x) && scaled(x) % SCALE === 0;
}

export interface PercentOptions {
  /** Spec 9.3.4: brand exposure rate, platform prints an integer: equal integers also pass (Profile B). */
  integerRule?: boolean;
  /**
   * Spec 9.3.4: the platform value as it was printed (snapshot `brand_exposure_rate_printed`), shown in
   * the note. The decision is by value (`isIntegerPrint`), the same for a number and a string.
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
  /** Set when the pass holds by a special clause: 9.3.2's 0.1 after rounding, 9.3.4's integer print. */
  passBy?: string;
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
    // Neither side: nothing was compared, which never passes (docs/rules.md §D1, §D3); the note
    // says so, since the row's tolerance is not what failed it (clean-room audit of 2026-11-26).
    const note =
      html === null && platform === null
        ? 'no value on either side: a figure the item compares must be on both sides, and nothing was compared (docs/rules.md §D1, §D3)'
        : `no value on ${html === null ? 'the HTML side' : 'the platform side'}`;
    return { verdict: 'fail', gap: null, tolerance, note };
  }
  if (profile === 'A') {
    const gap = decimalGap(html, platform);
    return { verdict: withinProfile(html, platform, 'A') ? 'pass' : 'fail', gap, tolerance };
  }
  const gap = roundedGap(html, platform);
  if (withinProfile(html, platform, 'B')) {
    // 9.3.2 "equal after rounding, or differing by 0.1 point": the second half is a special clause.
    const tenth = scaledRound1(html) !== scaledRound1(platform);
    return {
      verdict: 'pass',
      gap,
      tolerance,
      ...(tenth
        ? {
            note: `${round1(html)} against ${round1(platform)} after rounding to one decimal: 0.1 apart passes (9.3.2)`,
            passBy: PASS_BY.roundedTenth,
          }
        : {}),
    };
  }
  // 9.3.4 by value, whatever the encoding: 36, 36.0, "36" and "36.0" alike (docs/rules.md §D15).
  const integerPrint = isIntegerPrint(platform);
  const shown = options.platformPrinted ?? String(platform);
  if (options.integerRule && integerPrint && roundToInteger(html) === roundToInteger(platform)) {
    return {
      verdict: 'pass',
      gap,
      tolerance,
      note: `the platform prints an integer (${shown}); ${html} and ${platform} are equal after rounding to an integer (9.3.4)`,
      passBy: PASS_BY.integerPrint,
    };
  }
  // The gap is of the rounded values (9.3.1), which the row's HTML and platform values are not: the
  // note shows them, so the gap follows from what the reader sees (reviewer audit of 2026-11-27:
  // "HTML 29.64 · platform 29.8 · gap 0.2" with no word of 29.6).
  const rounded = `${round1(html)} against ${round1(platform)} after rounding to one decimal: ${gap} apart fails (9.3.3)`;
  if (!options.integerRule) return { verdict: 'fail', gap, tolerance, note: rounded };
  const why = integerPrint
    ? `the platform prints an integer (${shown}) but ${html} rounds to ${roundToInteger(html)}: 9.3.4 does not pass it`
    : `9.3.4 does not apply: the platform's ${shown} is not a whole number`;
  return { verdict: 'fail', gap, tolerance, note: `${rounded}; ${why}` };
}
