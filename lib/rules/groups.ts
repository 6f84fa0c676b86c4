import type { Data, PlatformMeta } from '../schema/data';
import type { ComparisonRow, Verdict } from './types';

/** The number of AI answer platforms items 4 (spec 7.2), 5 (7.6) and 7-12 cover. */
export const AI_PLATFORM_COUNT = 6;

/** Contract 4.2: the aggregate platform option. */
export const AGGREGATE = 'all';

export interface PlatformOption {
  /** `all` or a key of `meta.platforms`. */
  key: string;
  /** Step name: `aggregate (all)` or `豆包 (doubao)`. */
  stepName: string;
}

/** The six AI answer platforms in display order (contract 5, spec 7.6 "fixed order"). */
export function aiPlatforms(data: Data): PlatformMeta[] {
  return data.meta.platforms.slice(0, AI_PLATFORM_COUNT);
}

/** The seven platform options of the report: the aggregate, then the six AI platforms. */
export function platformOptions(data: Data): PlatformOption[] {
  return [
    { key: AGGREGATE, stepName: 'aggregate (all)' },
    ...aiPlatforms(data).map((p) => ({ key: p.key, stepName: `${p.name} (${p.key})` })),
  ];
}

/** Contract 6: a per-platform group the HTML does not have is not compared for that platform. */
export function notComparedNote(stepName: string, htmlPath: string): string {
  return `${stepName}: the HTML has no ${htmlPath}; not compared for this platform (contract 6)`;
}

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

/** A row comparing two whole numbers exactly (cited counts, row counts). A missing value fails. */
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

/** A passing row stating that both sides agree on having nothing (e.g. both word lists empty). */
export function bothEmptyRow(key: string, note: string): ComparisonRow {
  return { key, html: 0, platform: 0, gap: 0, tolerance: 'exact', verdict: 'pass', note };
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
