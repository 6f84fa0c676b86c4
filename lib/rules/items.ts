import type { Profile } from './types';

/**
 * The items of the spec, one row each: the only source of their titles, tags, objectives and spec
 * sections (test titles, Allure features, grids, JUnit and verdicts all read this table). The rule
 * of each item is `ITEM_RULES[item]` (index.ts).
 */
export interface ItemSpec {
  item: 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12;
  title: string;
  /** `@item5` plus the family: `npx playwright test --grep item5` or `--grep @ranking`. */
  tags: `@${string}`[];
  /**
   * What the item compares, in the spec's words (the test's Allure description): one text, or one
   * per profile where they compare differently (`objectiveOf`).
   */
  objective: string | Record<Profile, string>;
  /** The spec sections the item proves. */
  spec: string[];
}

export const ITEMS = [
  {
    item: 3,
    title: 'KPI cards, aggregate',
    tags: ['@item3', '@kpi'],
    objective: {
      A: 'Spec 7.2: exposure, top-3 and positive rates of `summary` against the snapshot `all` row within 0.05 (7.1).',
      B: 'Spec 9.2: the five fixed cards against the snapshot `all` row with the 9.3 rounding, the 9.3.4 integer rule for brand exposure, position_rate never used.',
    },
    spec: ['7.1', '7.2', '9.2', '9.3'],
  },
  {
    item: 4,
    title: 'KPI points per platform',
    tags: ['@item4', '@kpi'],
    objective: {
      A: "Spec 7.2: the last monitoring-day point of each of the six platforms against that platform's snapshot row.",
      B: "Spec 9.2: the five cards of each of the six platforms against that platform's snapshot row, with the 9.3 rounding; `self` for a diagnosis without a multi-period trend (9.2.3) and for a trend with no point.",
    },
    spec: ['7.2', '9.2', '9.2.3'],
  },
  {
    item: 5,
    title: 'industry exposure ranking',
    tags: ['@item5', '@ranking'],
    objective:
      'Spec 7.6 / 9.5: the HTML 「行业露出率排行榜」 against the platform 「露出排行 · 各平台明细」, top 10 sorted by average exposure rate: 5.1 aggregate rates, 5.2 rank and name, 5.3 the six platform columns. All three steps must agree.',
    spec: ['7.6', '9.5'],
  },
  {
    item: 6,
    title: 'word cloud',
    tags: ['@item6', '@wordcloud'],
    objective:
      'Spec 7.7: one aggregate word set on both sides whatever the platform option; all, positive and negative words compared as sets; the empty-state texts of 7.7.2 are equivalent.',
    spec: ['7.7'],
  },
  {
    item: 7,
    title: 'content type shares',
    tags: ['@item7', '@shares'],
    objective:
      'Spec 7.3: at most 8 legend entries by value; the percentage-or-count decision (7.3.3, 7.3.4); a 0.1 gap from dividing twice is not a failure (7.3.5). Aggregate and each platform.',
    spec: ['7.3'],
  },
  {
    item: 8,
    title: 'publish time shares',
    tags: ['@item8', '@shares'],
    objective: 'Spec 7.3 with 「无时间」 removed (7.3.2). Aggregate and each platform.',
    spec: ['7.3', '7.3.2'],
  },
  {
    item: 9,
    title: 'media type shares',
    tags: ['@item9', '@shares'],
    objective: {
      A: 'Spec 7.4: the HTML tiles drop 「其他」「未知」 and recompute on the rest; the platform top-10 bar with the 101.5 rule.',
      B: 'Spec 9.4: the HTML counts divided by a sum that includes 「其他」「未知」, which are then removed, top 10; the platform values are percentages, printed as they are.',
    },
    spec: ['7.4', '9.4'],
  },
  {
    item: 10,
    title: 'media name shares',
    tags: ['@item10', '@shares'],
    objective:
      'Spec 7.5: shares after removing 「其他」「未知」, top 10, against the platform bar chart rule.',
    spec: ['7.5'],
  },
  {
    item: 11,
    title: 'related sources: title, channel, cited count',
    tags: ['@item11', '@sources'],
    objective:
      'Spec 7.8.1: aligned by title, channel and cited count compared; fewer than 30 platform rows compare as many as exist, only differing counts fail.',
    spec: ['7.8.1'],
  },
  {
    item: 12,
    title: 'related sources: title at each ordinal',
    tags: ['@item12', '@sources'],
    objective:
      'Spec 7.8.2-7.8.5: the title at each display ordinal; platform rows stably sorted by cite_count; a different title with an equal count is a tie swap and fails.',
    spec: ['7.8.2', '7.8.3', '7.8.4', '7.8.5'],
  },
] as const satisfies readonly ItemSpec[];

/** An item's title, from the table (its verdicts, test titles and reports all say it). */
export function itemTitle(item: ItemSpec['item']): string {
  return ITEMS.find((i) => i.item === item)!.title;
}

/** `item 05 · …`: two digits so every listing (Allure, files) sorts items 3 … 12 in order. */
export function itemFeature(item: ItemSpec['item']): string {
  return `item ${String(item).padStart(2, '0')} · ${itemTitle(item)}`;
}

/** The test title of an item: `item 5 · industry exposure ranking`. */
export function itemTestTitle(spec: ItemSpec): string {
  return `item ${spec.item} · ${spec.title}`;
}

/** What an item compares for a run of this profile (the test's Allure description). */
export function objectiveOf(spec: Pick<ItemSpec, 'objective'>, profile: Profile): string {
  return typeof spec.objective === 'string' ? spec.objective : spec.objective[profile];
}
