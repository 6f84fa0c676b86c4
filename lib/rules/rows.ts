/**
 * Every builder of a mismatch-table row (key, HTML value, platform value, gap, tolerance, verdict,
 * note). The rules decide; these only shape the row. A missing value on either side fails and the note
 * names the side (docs/rules.md §D3).
 */
import { comparePercent, type PercentOptions } from './percent';
import type { Cell, ComparisonRow, Profile, Verdict } from './types';

/** Two texts compared character for character (e.g. spec 7.6 names, 7.8 titles). */
export function exactRow(key: string, html: Cell, platform: Cell, note?: string): ComparisonRow {
  const verdict: Verdict = html !== null && platform !== null && html === platform ? 'pass' : 'fail';
  return { key, html, platform, gap: null, tolerance: 'exact', verdict, ...(note ? { note } : {}) };
}

/** Two whole numbers compared exactly (cited counts, row counts). */
export function countRow(
  key: string,
  html: number | null,
  platform: number | null,
  note?: string,
): ComparisonRow {
  const both = html !== null && platform !== null;
  const verdict: Verdict = both && html === platform ? 'pass' : 'fail';
  const missing = both ? undefined : `no value on ${html === null ? 'the HTML side' : 'the platform side'}`;
  const notes = [missing, note].filter(Boolean).join('; ');
  return {
    key,
    html,
    platform,
    gap: both ? Math.abs(html - platform) : null,
    tolerance: 'exact',
    verdict,
    ...(notes ? { note: notes } : {}),
  };
}

/** Two percentages compared by the profile's rule (spec 7.1 for A, 9.3 for B; percent.ts). */
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
    ...(c.passBy ? { passBy: c.passBy } : {}),
  };
}

/**
 * A passing row stating that both sides agree on having nothing (e.g. both word lists empty). It
 * compares nothing: an item made only of such rows fails (`makeItem`, docs/rules.md §D1).
 */
export function bothEmptyRow(key: string, note: string): ComparisonRow {
  return { key, html: 0, platform: 0, gap: 0, tolerance: 'exact', verdict: 'pass', note, bothEmpty: true };
}

/** A failing row for a whole group present on one side only. */
export function missingGroupRow(
  key: string,
  html: string | null,
  platform: string | null,
  note: string,
): ComparisonRow {
  return { key, html, platform, gap: null, tolerance: 'exact', verdict: 'fail', note };
}

/** Spec 7.7: a word of one side's word set that the other side does not have. */
export function missingWordRow(label: string, word: string, missingOn: 'HTML' | 'platform'): ComparisonRow {
  return {
    key: `${label} 「${word}」`,
    html: missingOn === 'HTML' ? null : word,
    platform: missingOn === 'platform' ? null : word,
    gap: null,
    tolerance: 'same word set',
    verdict: 'fail',
    note: `missing on the ${missingOn} side`,
  };
}

/** Spec 7.7: how many words both sides have, out of each side's set (one passing summary row). */
export function wordsMatchedRow(
  label: string,
  matched: number,
  html: ReadonlySet<string>,
  platform: ReadonlySet<string>,
): ComparisonRow {
  return {
    key: `${label}s matched`,
    html: `${matched} of ${html.size}`,
    platform: `${matched} of ${platform.size}`,
    gap: null,
    tolerance: 'same word set',
    verdict: 'pass',
  };
}
