import type { SourceEntry } from '../schema/data';
import type { SourceRow } from '../schema/platform';
import { own } from './keyed';
import { AGGREGATE, notComparedNote, platformOptions } from './platforms';
import { makeItem, makeStep } from './results';
import { bothEmptyRow, countRow, exactRow, missingGroupRow } from './rows';
import { stableSortDesc } from './sorting';
import { ITEM_TITLES, type ComparisonRow, type ItemNumber, type ItemResult, type RuleContext } from './types';

/** Spec 8.2: related sources compared (source_top30). */
export const SOURCE_DEPTH = 30;

/** Spec 7.8.3: HTML order is the array order, first 30. */
function htmlSourceTop30(ctx: RuleContext, key: string): SourceEntry[] | undefined {
  const sources =
    key === AGGREGATE
      ? ctx.data.brand.source_top30
      : own(ctx.data.brand.platforms, key)?.citation.source_top30;
  return sources?.slice(0, SOURCE_DEPTH);
}

/** Spec 7.8.4: platform rows stably sorted by cite_count, highest first; the rank field is never used. */
export function platformSourceTop30(rows: readonly SourceRow[]): SourceRow[] {
  return stableSortDesc(rows, (r) => r.cite_count).slice(0, SOURCE_DEPTH);
}

type SourceRows = (html: SourceEntry[], platform: SourceRow[]) => ComparisonRow[];

/** Items 11 and 12: one step per platform option whose HTML has sources (docs/rules.md §D2). */
function checkSources(ctx: RuleContext, item: ItemNumber, rowsOf: SourceRows): ItemResult {
  const notes = [
    'platform order: cite_count, highest first, equal counts in API order; rank is never used (7.8.4)',
  ];
  const steps = platformOptions(ctx.data).flatMap((option) => {
    const html = htmlSourceTop30(ctx, option.key);
    if (!html) {
      notes.push(notComparedNote(option.stepName, 'citation.source_top30'));
      return [];
    }
    const rows = own(ctx.platform.sources, option.key);
    if (!rows) {
      const missing = missingGroupRow(
        'source rows',
        `${html.length} rows`,
        null,
        'platform source rows not fetched',
      );
      return [makeStep(option.key, option.stepName, [missing])];
    }
    return [makeStep(option.key, option.stepName, rowsOf(html, platformSourceTop30(rows)))];
  });
  return makeItem(item, ITEM_TITLES[item], steps, notes);
}

interface TitlePair {
  title: string;
  html?: SourceEntry;
  platform?: SourceRow;
}

/** Spec 7.8.1: align by title, not by row number; a repeated title pairs with its next occurrence (docs/rules.md §D13). */
function pairByTitle(html: SourceEntry[], platform: SourceRow[]): TitlePair[] {
  const unpaired = [...platform];
  const pairs: TitlePair[] = html.map((h) => {
    const i = unpaired.findIndex((p) => p.title === h.title);
    return { title: h.title, html: h, platform: i >= 0 ? unpaired.splice(i, 1)[0] : undefined };
  });
  return [...pairs, ...unpaired.map((p) => ({ title: p.title, platform: p }))];
}

function titleRows({ title, html, platform }: TitlePair): ComparisonRow[] {
  if (!html || !platform) {
    const note = `not in the ${html ? 'platform' : 'HTML'} top ${SOURCE_DEPTH}`;
    return [exactRow(`title 「${title}」`, html?.title ?? null, platform?.title ?? null, note)];
  }
  return [
    exactRow(`title 「${title}」 channel`, html.channel, platform.channel),
    countRow(`title 「${title}」 cited count`, html.cite_count, platform.cite_count),
  ];
}

/** Spec 7.8.1: compare as many rows as exist; only differing counts on the two sides fail. */
function rowCountRow(html: SourceEntry[], platform: SourceRow[]): ComparisonRow {
  const notes = [
    platform.length < SOURCE_DEPTH
      ? `the platform has fewer than ${SOURCE_DEPTH} rows: as many as exist are compared (7.8.1)`
      : '',
    html.length === 0 && platform.length === 0 ? 'both empty' : '',
  ].filter(Boolean);
  return countRow('row count', html.length, platform.length, notes.join('; ') || undefined);
}

/** Item 11, related sources: title, channel, cited count, aligned by title (spec 7.8.1, 7.8.3, 7.8.4). */
export function checkItem11(ctx: RuleContext): ItemResult {
  return checkSources(ctx, 11, (html, platform) => [
    rowCountRow(html, platform),
    ...pairByTitle(html, platform).flatMap(titleRows),
  ]);
}

interface Lists {
  html: SourceEntry[];
  platform: SourceRow[];
}

/**
 * Spec 7.8.5: a tie swap is two titles both present on both sides, at swapped ordinals, with equal
 * cited counts. A title absent from the other side is a missing title and is reported as one
 * (docs/rules.md §D13).
 */
function ordinalNote(key: string, h: SourceEntry, p: SourceRow, lists: Lists): string {
  const onPlatform = lists.platform.find((r) => r.title === h.title);
  const inHtml = lists.html.find((e) => e.title === p.title);
  const missing = [
    onPlatform ? '' : `「${h.title}」 is missing on the platform side`,
    inHtml ? '' : `「${p.title}」 is missing on the HTML side`,
  ].filter(Boolean);
  if (missing.length > 0) return `${missing.join('; ')} (7.8.1)`;
  const tie =
    h.cite_count === p.cite_count &&
    onPlatform?.cite_count === h.cite_count &&
    inHtml?.cite_count === p.cite_count;
  if (tie) {
    return `tie swap, not a missing title: ${key} HTML 「${h.title}」, platform 「${p.title}」, cited count ${h.cite_count} on both sides (7.8.5)`;
  }
  return `cited count HTML ${h.cite_count}, platform ${p.cite_count}`;
}

function ordinalRow(index: number, lists: Lists): ComparisonRow {
  const key = `#${index + 1}`;
  const html = lists.html[index];
  const platform = lists.platform[index];
  if (!html || !platform) {
    return exactRow(
      key,
      html?.title ?? null,
      platform?.title ?? null,
      `no source at ${key} on the ${html ? 'platform' : 'HTML'} side`,
    );
  }
  if (html.title === platform.title) return exactRow(key, html.title, platform.title);
  return exactRow(key, html.title, platform.title, ordinalNote(key, html, platform, lists));
}

/** Item 12, related sources: the title at each display ordinal (spec 7.8.2 to 7.8.5). */
export function checkItem12(ctx: RuleContext): ItemResult {
  return checkSources(ctx, 12, (html, platform) =>
    html.length === 0 && platform.length === 0
      ? [bothEmptyRow('sources (none on either side)', 'both empty')]
      : Array.from({ length: Math.max(html.length, platform.length) }, (_, i) =>
          ordinalRow(i, { html, platform }),
        ),
  );
}
