import type { Cell, ComparisonRow, Profile, Verdict } from './types';

/** Spec 8.2: Profile A tolerance, 0.05 points. */
export const PROFILE_A_TOLERANCE = 0.05;
/** Spec 9.3: Profile B, 0.1 point after rounding both sides to 1 decimal. */
export const PROFILE_B_TOLERANCE = 0.1;
const EPS = 1e-9;

/** Spec 9.3.1: round(x + 1e-9, 1), half away from zero for the positive rates we compare. */
export function round1(x: number): number {
  return Math.round((x + 1e-9) * 10) / 10;
}

/** Rounds a gap for display and comparison, so 23.45 - 23.4 is 0.05 and not 0.0500000000000007. */
export function cleanGap(x: number): number {
  return Math.round(Math.abs(x) * 1e6) / 1e6;
}

export interface PercentOptions {
  /** Spec 9.3.4: brand exposure rate, platform prints an integer: equal integers also pass (Profile B). */
  integerRule?: boolean;
  /** Spec 7.6: an empty HTML cell against the platform's `-` is not a difference (item 5 only). */
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

/**
 * Compares two percentages by the profile's rule (spec 7.1 for A, 9.3 for B). Numbers are compared,
 * never decimal places (7.1.1). A missing value on either side fails, naming the side.
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
    const gap = cleanGap(html - platform);
    return { verdict: gap > PROFILE_A_TOLERANCE + EPS ? 'fail' : 'pass', gap, tolerance };
  }
  const gap = cleanGap(round1(html) - round1(platform));
  if (gap <= PROFILE_B_TOLERANCE + EPS) return { verdict: 'pass', gap, tolerance };
  if (options.integerRule && Number.isInteger(platform) && Math.round(html + 1e-9) === platform) {
    return {
      verdict: 'pass',
      gap,
      tolerance,
      note: 'platform prints an integer; equal after rounding to an integer (9.3.4)',
    };
  }
  return { verdict: 'fail', gap, tolerance };
}

/** A mismatch-table row for a percentage comparison. */
export function percentRow(
  key: string,
  html: number | null,
  platform: number | null,
  profile: Profile,
  options: PercentOptions = {},
  note?: string,
): ComparisonRow {
  const c = comparePercent(html, platform, profile, options);
  const notes = [c.note, note].filter(Boolean).join('; ');
  return {
    key,
    html: html as Cell,
    platform: platform as Cell,
    gap: c.gap,
    tolerance: c.tolerance,
    verdict: c.verdict,
    ...(notes ? { note: notes } : {}),
  };
}
