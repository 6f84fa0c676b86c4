import { encodePlatform } from './encodings';
import { isDropped, platformShares } from './shares';
import { mulberry32, round1, shuffle, shuffleKeepingTies } from './prng';
import {
  AGGREGATE,
  DIMENSIONS,
  printRate,
  RATE_SHAPES,
  SCOPES,
  type CompetitorRowInput,
  type Dimension,
  type NoValue,
  type RateInput,
  type RateStyle,
  type SnapshotRowInput,
  type SourceRowInput,
  type TmcRowInput,
  type WordcloudInput,
} from './spec';
import {
  byValueDesc,
  sumOf,
  type Entry,
  type GroupTruth,
  type Kpi,
  type SourceTruth,
  type Truth,
} from './truth';
import { AI_PLATFORMS, NO_TIME } from './vocab';

/** The platform view of a truth: the payload rows of docs/contract.md §4.2 and 4.3, printed the project's way. */

// ---------------------------------------------------------------------------------------------
// Platform view

/** Formats rates the way one project's platform prints them. */
export class RateFormat {
  private n = 0;
  constructor(
    private readonly style: RateStyle,
    private readonly none: NoValue,
  ) {}

  private styled(text: string, asPercent: boolean): string | number {
    const shape = this.style === 'mixed' ? RATE_SHAPES[this.n++ % 3]! : this.style;
    return printRate(text, shape === 'percent' && !asPercent ? 'string' : shape);
  }

  /** One decimal, as the platform prints (7.1.1); `null` is the project's "no value". */
  rate(value: number | null | undefined): RateInput {
    if (value === null || value === undefined) return this.none === 'absent' ? undefined : this.none;
    return this.styled(round1(value).toFixed(1), true);
  }

  /** A value printed as given: integers (9.3.4) and the 7.3.5 percentages. */
  plain(value: number): string | number {
    return this.styled(String(value), true);
  }

  /** A count (7.4 bar rule): never with `%`. */
  count(value: number): string | number {
    return this.styled(String(value), false);
  }
}

export function withValue<T extends object>(row: T, key: string, value: RateInput): T {
  return value === undefined ? row : { ...row, [key]: value };
}

/** The platform payloads of one project (rows only; the server adds envelopes and faults). */
export interface PlatformView {
  /** Rows carry `crawlBatchId` = the project's first batch id. */
  snapshot: SnapshotRowInput[];
  competitor: CompetitorRowInput[];
  tmc: TmcRowInput[];
  source: Record<string, SourceRowInput[]>;
  wordcloud: WordcloudInput;
}

function snapshotRows(truth: Truth, crawlBatchId: string): SnapshotRowInput[] {
  const { spec } = truth;
  const f = new RateFormat(spec.rates, spec.noValue);
  const B = spec.profile === 'B';
  const metric = spec.positionMetric ?? 'top3';
  const row = (
    platform: string,
    k: Kpi,
    offset: Partial<Record<'exposure' | 'positive', number>>,
  ): SnapshotRowInput => {
    const aggregate = platform === AGGREGATE;
    const fields: [string, RateInput][] = [
      ['exposure_rate', f.rate(k.exposure + (offset.exposure ?? 0))],
      ['top3_rate', f.rate(k.top3)],
      ['top5_rate', f.rate(spec.reportType === 'monitor' && !B ? null : k.top5)],
      // 9.2: metric `first` with first_position_rate left empty, so top1_rate stands in.
      ['first_position_rate', metric === 'first' ? '' : f.rate(k.first)],
      ['top1_rate', f.rate(spec.reportType === 'monitor' && !B ? null : k.first)],
      // 9.2.2 trap: position_rate holds the line's top-3 (or top-5) display, never the first-position rate.
      ['position_rate', f.rate(metric === 'top5' ? k.top5 : k.top3)],
      ['positive_rate', f.rate(k.positive + (offset.positive ?? 0))],
      // 9.3.4: the platform prints brand exposure as an integer (the aggregate always, per platform in monitor).
      [
        'brand_exposure_rate',
        !B
          ? f.rate(null)
          : aggregate || spec.reportType === 'monitor'
            ? f.plain(Math.round(k.brandExposure))
            : f.rate(k.brandExposure),
      ],
      [
        'product_link_rate',
        !B ? undefined : aggregate || spec.reportType === 'monitor' ? f.rate(k.productLink) : f.rate(null),
      ],
    ];
    const start = { platform, crawlBatchId } as SnapshotRowInput;
    return fields.reduce<SnapshotRowInput>((r, [key, value]) => withValue(r, key, value), start);
  };
  return [
    // 9.3.2: in Profile B, a 0.1 gap after rounding passes (aggregate positive rate, one platform's exposure).
    row(AGGREGATE, truth.summary, B ? { positive: -0.1 } : {}),
    ...truth.platforms.map((p, i) => row(p.key, p.latest, B && i === 1 ? { exposure: 0.1 } : {})),
  ];
}

/** Anti-collision rank numbers: screen position, reversed inside ties, first two swapped (7.6, 7.8.4). */
function scrambledRanks(values: number[]): number[] {
  const ranks = values.map((_, i) => i + 1);
  for (let i = 0; i < values.length;) {
    let j = i;
    while (j + 1 < values.length && values[j + 1] === values[i]) j++;
    const slice = ranks.slice(i, j + 1).reverse();
    ranks.splice(i, slice.length, ...slice);
    i = j + 1;
  }
  if (ranks.length > 2) [ranks[1], ranks[2]] = [ranks[2] as number, ranks[1] as number];
  return ranks;
}

function competitorRows(truth: Truth): CompetitorRowInput[] {
  const { spec } = truth;
  const f = new RateFormat(spec.rates, spec.noValue);
  const rng = mulberry32(`${spec.seed}/competitor`);
  // Screen order: by the printed (one-decimal) rate, equal rates in the HTML's order; the Profile B
  // tie swap reverses one near tie (within 0.05, 9.5.5).
  const all = [...truth.brands, ...truth.products].map((r, i) => ({ r, i, shown: round1(r.avg) }));
  all.sort((a, b) => b.shown - a.shown || a.i - b.i);
  if (truth.tieSwap) {
    const [first, second] = truth.tieSwap.map((n) =>
      all.findIndex((x) => x.r.name === n && x.r.kind === 'brand'),
    );
    if (first !== undefined && second !== undefined && first >= 0 && second >= 0) {
      [all[first], all[second]] = [all[second] as (typeof all)[number], all[first] as (typeof all)[number]];
    }
  }
  const ranks = scrambledRanks(all.map((x) => x.shown));
  const rows = all.map(({ r }, i) => ({
    kind: r.kind,
    name: r.name,
    rank: ranks[i] as number,
    exposure_rate: f.rate(r.avg) as string | number,
    platform_rates: AI_PLATFORMS.map((p, c) => ({
      name: p.platformName,
      rate:
        r.cells[c] === 'value'
          ? (f.rate((r.per[c] as number) + (r.columnOffset?.index === c ? r.columnOffset.by : 0)) ?? '-')
          : '-',
    })),
    shown: round1(r.avg),
  }));
  const ordered = spec.shape.apiShuffle ? shuffleKeepingTies(rng, rows, (r) => r.shown) : rows;
  return ordered.map(({ shown: _shown, ...row }) => row);
}

function tmcRows(truth: Truth): TmcRowInput[] {
  const { spec } = truth;
  const f = new RateFormat(spec.rates, spec.noValue);
  const rows: TmcRowInput[] = [];
  for (const scope of SCOPES) {
    const groups = truth.groups[scope] as Record<Dimension, GroupTruth>;
    for (const dimension of DIMENSIONS) {
      const group = groups[dimension];
      const push = (name: string, value: string | number | null | undefined) =>
        rows.push({ platform: scope, dimension, name, value: value ?? null });
      if (group.kind === 'percent') {
        // 7.3.5: the platform divided the HTML's percentages (sum 100.2) by their sum once more and
        // prints one decimal: 52.1 → 52 (each gap at most 0.1 after rounding, explained by re-dividing).
        const sum = sumOf(group.entries);
        for (const e of [...group.entries].sort(byValueDesc))
          push(e.name, f.plain(round1((e.value / sum) * 100)));
        continue;
      }
      const media = dimension === 'media_category' || dimension === 'media_name';
      if (media && spec.shape.mediaBars === 'count') {
        // 7.4: raw counts; their top-10 sum is far above 101.5, so the bar divides by it.
        for (const e of group.entries.filter((x) => !isDropped(x.name)).sort(byValueDesc))
          push(e.name, f.count(e.value));
        continue;
      }
      // 7.3.3: where the HTML prints percentages that still include a small 「无时间」, the
      // platform's percentages are over the same whole (the suite uses both directly).
      const shares = platformShares(group.entries, dimension, spec.profile, {
        publishTimeOverAll: spec.shape.publishTime === 'html-no-time',
      });
      for (const e of shares.sort(byValueDesc)) push(e.name, f.rate(e.value));
      if (dimension === 'publish_time' && spec.shape.publishTime === 'platform-no-time') {
        const noTime = group.entries.find((e) => e.name === NO_TIME) as Entry;
        push(NO_TIME, f.rate((noTime.value / sumOf(group.entries)) * 100));
      }
      if (dimension === 'media_category' && spec.profile === 'B') {
        // The platform lists 其他 and 未知 too; both sides drop them before the top 10 (9.4.2).
        for (const e of group.entries.filter((x) => isDropped(x.name)))
          push(e.name, f.rate((e.value / sumOf(group.entries)) * 100));
      }
    }
  }
  return rows;
}

function sourceRows(truth: Truth): Record<string, SourceRowInput[]> {
  const rng = mulberry32(`${truth.spec.seed}/source`);
  const out: Record<string, SourceRowInput[]> = {};
  for (const scope of SCOPES) {
    const list = truth.sources[scope] as SourceTruth[];
    const ranks = scrambledRanks(list.map((s) => s.cite_count));
    const rows = list.map((s, i) => ({
      title: s.title,
      channel: s.channel,
      cite_count: s.cite_count,
      rank: ranks[i] as number,
      url: s.url,
    }));
    out[scope] = truth.spec.shape.apiShuffle ? shuffleKeepingTies(rng, rows, (r) => r.cite_count) : rows;
  }
  return out;
}

function platformWordcloud(truth: Truth): WordcloudInput {
  const rng = mulberry32(`${truth.spec.seed}/words`);
  const list = (entries: Entry[]) => shuffle(rng, entries).map((e) => ({ word: e.name, weight: e.value }));
  return {
    words: list(truth.wordcloud.words),
    positive: list(truth.wordcloud.positive),
    negative: list(truth.wordcloud.negative),
  };
}

export function platformView(truth: Truth): PlatformView {
  const view = {
    snapshot: snapshotRows(truth, truth.spec.batchIds[0] ?? ''),
    competitor: competitorRows(truth),
    tmc: tmcRows(truth),
    source: sourceRows(truth),
    wordcloud: platformWordcloud(truth),
  };
  return encodePlatform(view, truth.spec);
}
