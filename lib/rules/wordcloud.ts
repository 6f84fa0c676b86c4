import type { Wordcloud } from '../schema/data';
import { makeItem, makeStep } from './results';
import { bothEmptyRow, missingWordRow, wordsMatchedRow } from './rows';
import { type ComparisonRow, type ItemResult, type RuleContext, type StepResult } from './types';

type WordList = keyof Wordcloud;

/**
 * The three word sets, each under the spec clause that compares it: all words (7.7.1), the
 * positive-word image (7.7.3), the negative words (7.7.4).
 */
const STEPS: { id: string; name: string; list: WordList; label: string }[] = [
  { id: '7.7.1', name: 'all words', list: 'words', label: 'word' },
  { id: '7.7.3', name: 'positive words', list: 'positive', label: 'positive word' },
  { id: '7.7.4', name: 'negative words', list: 'negative', label: 'negative word' },
];

/** Spec 7.7.2: empty-state texts that mean the same thing on both sides. */
const EMPTY_NEGATIVE_NOTE =
  'both empty: HTML 「未监测到负面词」 = platform 「中正面率100%,暂无负面词」 (7.7.2, 7.7.4)';

/** Spec 7.7.3: only the words are compared, as a set, not weight, size, colour, position or order (docs/rules.md §D14). */
function wordSet(cloud: Wordcloud, list: WordList): Set<string> {
  return new Set(cloud[list].map((w) => w.word));
}

function compareWordSets(
  label: string,
  list: WordList,
  html: Set<string>,
  platform: Set<string>,
): ComparisonRow[] {
  if (html.size === 0 && platform.size === 0) {
    return [
      bothEmptyRow(
        `${label}s (none on either side)`,
        list === 'negative' ? EMPTY_NEGATIVE_NOTE : 'both empty',
      ),
    ];
  }
  const onlyHtml = [...html].filter((w) => !platform.has(w));
  const onlyPlatform = [...platform].filter((w) => !html.has(w));
  const matched = html.size - onlyHtml.length;
  return [
    ...(matched > 0 ? [wordsMatchedRow(label, matched, html, platform)] : []),
    ...onlyHtml.map((w) => missingWordRow(label, w, 'platform')),
    ...onlyPlatform.map((w) => missingWordRow(label, w, 'HTML')),
  ];
}

function wordSetStep(ctx: RuleContext, step: (typeof STEPS)[number]): StepResult {
  const html = wordSet(ctx.data.brand.wordcloud, step.list);
  const platform = wordSet(ctx.platform.wordcloud, step.list);
  const result = makeStep(step.id, step.name, compareWordSets(step.label, step.list, html, platform));
  // The words compared, each once: the matched ones share one row (`compared`, the failure's count).
  const words = new Set([...html, ...platform]).size;
  return words > 0 ? { ...result, compared: words } : result;
}

/**
 * Item 6, word cloud (spec 7.7): brand.wordcloud against the word cloud endpoint, as word sets
 * (words, positive, negative). One aggregate set whatever the platform option (7.7.1, 4.3).
 */
export function checkItem6(ctx: RuleContext): ItemResult {
  const notes = [
    'one aggregate word cloud: the same words for all seven platform options (7.7.1)',
    'headings 「AI 回答关键词」 = 「AI 认知词云」 and 「AI 回答正面关键词」 = 「正面词」 are the same (7.7.2)',
    'words only: weight, size, colour, position and order are not compared (7.7.3)',
  ];
  return makeItem(
    6,
    STEPS.map((s) => wordSetStep(ctx, s)),
    notes,
  );
}
