import type { SourceEntry } from '../schema/data';
import type { SourceRow } from '../schema/platform';
import { own } from './keyed';
import { AGGREGATE, beyondSixNote, notComparedNote, platformOptions } from './platforms';
import { makeItem, makeStep } from './results';
import { bothEmptyRow, countRow, exactRow, missingGroupRow } from './rows';
import { stableSortDesc } from './sorting';
import { type ComparisonRow, type ItemNumber, type ItemResult, type RuleContext } from './types';

/** Spec 8.2: related sources compared (source_top30). */
export const SOURCE_DEPTH = 30;

/** Spec 7.8.3: HTML order is the array order (the first 30 are compared). */
function htmlSources(ctx: RuleContext, key: string): SourceEntry[] | undefined {
  return key === AGGREGATE
    ? ctx.data.brand.source_top30
    : own(ctx.data.brand.platforms, key)?.citation.source_top30;
}

/** Spec 7.8.4: platform rows stably sorted by cite_count, highest first; the rank field is never used. */
export function platformSourceOrder(rows: readonly SourceRow[]): SourceRow[] {
  return stableSortDesc(rows, (r) => r.cite_count);
}

/**
 * Both sides of one platform option: the first 30 compared (7.8.3, 7.8.4, 8.2) and every row each side
 * has, in display order, so a title beyond the 30th row can be located in a note.
 */
interface Lists {
  html: SourceEntry[];
  platform: SourceRow[];
  htmlAll: SourceEntry[];
  platformAll: SourceRow[];
}

type SourceRows = (lists: Lists) => ComparisonRow[];

/** Items 11 and 12: one step per platform option whose HTML has sources (docs/rules.md §D2). */
function checkSources(ctx: RuleContext, item: ItemNumber, rowsOf: SourceRows): ItemResult {
  const notes = [
    'platform order: cite_count, highest first, equal counts in API order; rank is never used (7.8.4)',
    ...beyondSixNote(ctx.data),
  ];
  const steps = platformOptions(ctx.data).flatMap((option) => {
    const htmlAll = htmlSources(ctx, option.key);
    if (!htmlAll) {
      notes.push(notComparedNote(option.stepName, 'citation.source_top30'));
      return [];
    }
    const rows = own(ctx.platform.sources, option.key);
    if (!rows) {
      const missing = missingGroupRow(
        'source rows',
        `${Math.min(htmlAll.length, SOURCE_DEPTH)} rows`,
        null,
        'platform source rows not fetched',
      );
      return [makeStep(option.key, option.stepName, [missing])];
    }
    const platformAll = platformSourceOrder(rows);
    const lists: Lists = {
      html: htmlAll.slice(0, SOURCE_DEPTH),
      platform: platformAll.slice(0, SOURCE_DEPTH),
      htmlAll,
      platformAll,
    };
    // No source on either side: one row saying so, for both items (an item of only such rows
    // compared nothing and fails: docs/rules.md §D1).
    const compared =
      lists.html.length === 0 && lists.platform.length === 0
        ? [bothEmptyRow('sources (none on either side)', 'both empty')]
        : rowsOf(lists);
    return [makeStep(option.key, option.stepName, compared)];
  });
  return makeItem(item, steps, notes);
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

/**
 * Where a title stands beyond the 30 compared rows of a side, e.g. `the platform's #31, cited count 1`;
 * `undefined` when it is within the 30 (an ordinary swap) or when that side does not have it at all.
 */
function beyondTop30(title: string, side: 'HTML' | 'platform', lists: Lists): string | undefined {
  const all: { title: string; cite_count: number }[] = side === 'HTML' ? lists.htmlAll : lists.platformAll;
  const i = all.findIndex((r) => r.title === title);
  if (i < SOURCE_DEPTH) return undefined;
  return `「${title}」 is the ${side}'s #${i + 1}, cited count ${all[i]!.cite_count}, beyond the ${SOURCE_DEPTH} compared`;
}

function titleRows({ title, html, platform }: TitlePair, lists: Lists): ComparisonRow[] {
  if (!html || !platform) {
    const other = html ? 'platform' : 'HTML';
    // A title the other side lists fewer times (§D13 pairs occurrence by occurrence) is in its top 30:
    // "not in the platform top 30" denied a title the platform has (rules audit of 2026-11-28).
    const times = (n: number) => (n === 1 ? 'once' : `${n} times`);
    const onHtml = lists.html.filter((h) => h.title === title).length;
    const onPlatform = lists.platform.filter((p) => p.title === title).length;
    if (Math.min(onHtml, onPlatform) > 0) {
      const note = `listed ${times(onHtml)} in the HTML top ${SOURCE_DEPTH} and ${times(onPlatform)} in the platform's: this occurrence has no partner on the ${other} side (7.8.1, docs/rules.md §D13)`;
      return [exactRow(`title 「${title}」`, html?.title ?? null, platform?.title ?? null, note)];
    }
    const beyond = beyondTop30(title, other, lists);
    const note = `not in the ${other} top ${SOURCE_DEPTH}${beyond ? `: ${beyond}` : ''}`;
    return [exactRow(`title 「${title}」`, html?.title ?? null, platform?.title ?? null, note)];
  }
  return [
    exactRow(`title 「${title}」 channel`, html.channel, platform.channel),
    countRow(`title 「${title}」 cited count`, html.cite_count, platform.cite_count),
  ];
}

/** Spec 7.8.1: compare as many rows as exist; only differing counts on the two sides fail. */
function rowCountRow(html: SourceEntry[], platform: SourceRow[]): ComparisonRow {
  const note =
    platform.length < SOURCE_DEPTH
      ? `the platform has fewer than ${SOURCE_DEPTH} rows: as many as exist are compared (7.8.1)`
      : undefined;
  return countRow('row count', html.length, platform.length, note);
}

/** Item 11, related sources: title, channel, cited count, aligned by title (spec 7.8.1, 7.8.3, 7.8.4). */
export function checkItem11(ctx: RuleContext): ItemResult {
  return checkSources(ctx, 11, (lists) => [
    rowCountRow(lists.html, lists.platform),
    ...pairByTitle(lists.html, lists.platform).flatMap((pair) => titleRows(pair, lists)),
  ]);
}

/**
 * Spec 7.8.5 decides by the ordinal and the counts: "when the same ordinal has different titles but
 * equal cited counts, the item fails, and the report table lists ordinal, HTML title, platform title and
 * cited count, and states that it is a tie swap, not a missing title". That holds also when one title
 * lies beyond the 30th row of the other side (a tie at the cut-off), which the note then locates. Only
 * with different counts are titles the other side's 30 lack reported as missing (docs/rules.md §D13).
 */
function ordinalNote(key: string, h: SourceEntry, p: SourceRow, lists: Lists): string {
  if (h.cite_count === p.cite_count) {
    // 7.8.5 decides by the counts (docs/rules.md §D13), so the row says tie swap; a title the other
    // side does not list at all is said too, or the note would deny a title that is missing (rules
    // audit of 2026-11-26: "not a missing title" for two titles neither side shared).
    const absent = [
      lists.platformAll.some((r) => r.title === h.title)
        ? ''
        : `「${h.title}」 is not on the platform side at all`,
      // The HTML shows at most 30: a full list may hold the title beyond what it shows.
      lists.htmlAll.some((e) => e.title === p.title) || lists.htmlAll.length >= SOURCE_DEPTH
        ? ''
        : `「${p.title}」 is not on the HTML side at all`,
    ].filter(Boolean);
    // The absence first, and the titles not again (the row's HTML and platform values are they): after
    // two titles of 70 characters each, every output's cut fell inside the "yet …" that says the
    // title is missing, and a reader was left with "not a missing title" (review 59k).
    if (absent.length > 0)
      return `${absent.join(', and ')} (item 11 lists it); cited count ${h.cite_count} on both sides at ${key}: a tie swap by the counts all the same (7.8.5: equal cited counts at an ordinal are a tie swap, not a missing title)`;
    const where = [beyondTop30(h.title, 'platform', lists), beyondTop30(p.title, 'HTML', lists)].filter(
      Boolean,
    );
    const tie = `tie swap, not a missing title: ${key} HTML 「${h.title}」, platform 「${p.title}」, cited count ${h.cite_count} on both sides (7.8.5)`;
    return where.length > 0 ? `${tie}; ${where.join('; ')}` : tie;
  }
  const missing = [
    lists.platform.some((r) => r.title === h.title) ? '' : `「${h.title}」 is missing on the platform side`,
    lists.html.some((e) => e.title === p.title) ? '' : `「${p.title}」 is missing on the HTML side`,
  ].filter(Boolean);
  const counts = `cited count HTML ${h.cite_count}, platform ${p.cite_count}`;
  return missing.length > 0 ? `${missing.join('; ')} (7.8.1); ${counts}` : counts;
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
  return checkSources(ctx, 12, (lists) =>
    Array.from({ length: Math.max(lists.html.length, lists.platform.length) }, (_, i) =>
      ordinalRow(i, lists),
    ),
  );
}
