import { encodeHtml } from './encodings';
import { mulberry32, round2, shuffle, shuffleKeepingTies } from './prng';
import { AGGREGATE, DIMENSIONS, type DataInput, type Dimension, type GroupInput } from './spec';
import {
  byValueDesc,
  sumOf,
  type Entry,
  type GroupTruth,
  type Kpi,
  type PlatformTruth,
  type RankedTruth,
  type SourceTruth,
  type Truth,
} from './truth';
import { AI_PLATFORMS, NO_TIME } from './vocab';

/** The HTML view of a truth: the report page's DATA (docs/contract.md §5). */

// ---------------------------------------------------------------------------------------------
// HTML view (DATA)

function htmlRate(truth: Truth, value: number): string | number {
  if (!truth.spec.shape.htmlRateStrings) return value;
  return value === 0 || value === 100 ? `${value}%` : `${value.toFixed(2)}%`;
}

function htmlGroup(truth: Truth, scope: string, dimension: Dimension): GroupInput {
  const { spec } = truth;
  const group = (truth.groups[scope] as Record<Dimension, GroupTruth>)[dimension];
  if (group.kind === 'percent') {
    // 7.3.5: the HTML prints its percentages (sum 100.2) as they are: 52.1 against the platform's 52.
    return group.entries.map((e) => ({ name: e.name, value: e.value }));
  }
  const asPercent = (entries: Entry[]) =>
    entries.map((e) => ({ name: e.name, value: round2((e.value / sumOf(group.entries)) * 100) }));
  if (dimension === 'content_type' && spec.shape.contentType === 'percent10') return asPercent(group.entries);
  if (dimension === 'publish_time') {
    // 7.3.2: the HTML keeps 「无时间」 (small) in its percentages; or counts without it.
    if (spec.shape.publishTime === 'html-no-time') return asPercent(group.entries);
    return group.entries.filter((e) => e.name !== NO_TIME).map((e) => ({ name: e.name, value: e.value }));
  }
  return group.entries.map((e) => ({ name: e.name, value: e.value }));
}

function htmlSources(truth: Truth, scope: string) {
  return (truth.sources[scope] as SourceTruth[]).map((s) => ({
    title: s.title,
    channel: s.channel,
    cite_count: s.cite_count,
    ...(truth.spec.shape.sourceUrls ? { url: s.url } : {}),
  }));
}

function industryRanking(truth: Truth, list: RankedTruth[], column: number) {
  return list
    .filter((b) => b.cells[column] !== 'missing')
    .map((b) => ({
      name: b.name,
      exposure_rate: b.cells[column] === 'null' ? null : (b.per[column] as number),
    }))
    .sort((a, b) => (b.exposure_rate ?? -1) - (a.exposure_rate ?? -1));
}

function trendPoint(truth: Truth, date: string, k: Kpi) {
  const B = truth.spec.profile === 'B';
  return {
    date,
    exposure_rate: k.exposure,
    top3_rate: k.top3,
    top5_rate: k.top5,
    first_position_rate: k.first,
    positive_mention_rate: k.positive,
    ...(B ? { brand_exposure_rate: k.brandExposure } : {}),
  };
}

function platformData(truth: Truth, p: PlatformTruth, column: number) {
  const { spec } = truth;
  const B = spec.profile === 'B';
  const missing = new Set(
    (spec.shape.missingCitation ?? []).filter((m) => m.key === p.key).map((m) => m.group),
  );
  const citation: Record<string, unknown> = { media_category: htmlGroup(truth, p.key, 'media_category') };
  for (const dimension of ['content_type', 'publish_time', 'media_name'] as const) {
    if (!missing.has(dimension)) citation[dimension] = htmlGroup(truth, p.key, dimension);
  }
  if (!missing.has('source_top30')) citation.source_top30 = htmlSources(truth, p.key);
  const trend = p.trend.map((t) => trendPoint(truth, t.date, t.kpi));
  return {
    self: {
      exposure_rate: p.latest.exposure,
      top3_rate: p.latest.top3,
      top5_rate: p.latest.top5,
      first_position_rate: p.latest.first,
      positive_mention_rate: p.latest.positive,
      ...(B ? { brand_exposure_rate: p.latest.brandExposure } : {}),
      // 9.2: per-platform product link only where the platform has it per platform (monitor).
      ...(B && spec.reportType === 'monitor' ? { product_link_rate: p.latest.productLink } : {}),
    },
    trend: spec.shape.trendOrder === 'desc' ? trend.reverse() : trend,
    industry_ranking: industryRanking(truth, truth.brands, column),
    citation: citation as DataInput['brand']['platforms'][string]['citation'],
  };
}

function coreCompetitors(truth: Truth) {
  const rng = mulberry32(`${truth.spec.seed}/core`);
  const competitors = truth.brands.filter((b) => b.name !== truth.spec.brand);
  // Printed order: any order, but equal rates keep theirs (7.6: "equal rates keep the order each side printed").
  const ordered = truth.spec.shape.apiShuffle
    ? shuffleKeepingTies(rng, competitors, (b) => b.avg)
    : competitors;
  const list: { name: string; avg_exposure_rate: string | number | null }[] = ordered.map((b) => ({
    name: b.name,
    avg_exposure_rate: b.avg,
  }));
  for (const extra of truth.htmlOnlyCompetitors) {
    const at = extra.after ? list.findIndex((c) => c.name === extra.after) + 1 : list.length;
    list.splice(at > 0 ? at : list.length, 0, { name: extra.name, avg_exposure_rate: extra.avg });
  }
  return list;
}

export function htmlData(truth: Truth): DataInput {
  const { spec, summary } = truth;
  const B = spec.profile === 'B';
  const keys = AI_PLATFORMS.map((_, i) => i);
  const platforms = Object.fromEntries(
    (spec.shape.reversePlatformKeys ? [...keys].reverse() : keys).map((i) => {
      const p = truth.platforms[i] as PlatformTruth;
      return [p.key, platformData(truth, p, i)];
    }),
  );
  const tmcAggregate = Object.fromEntries(
    DIMENSIONS.map((d) => [d, htmlGroup(truth, AGGREGATE, d)]),
  ) as DataInput['brand']['tmc_aggregate'];
  const rng = mulberry32(`${spec.seed}/html-words`);
  const maxWeight = Math.max(...truth.wordcloud.words.map((w) => w.value));
  const words = (entries: Entry[]) =>
    [...entries]
      .sort(byValueDesc)
      .map((e) =>
        spec.shape.htmlWeights === 'absent'
          ? { word: e.name }
          : { word: e.name, weight: Math.round((e.value / maxWeight) * 1000) / 1000 },
      );
  const data: DataInput = {
    meta: {
      report_type: spec.shape.metaReportType ?? spec.reportType,
      topic: spec.topic,
      company_id: spec.companyId,
      project_id: spec.projectId,
      batch_date: spec.batchDate,
      mode: 'full',
      ...(B ? { position_metric: spec.positionMetric ?? 'top3' } : {}),
      line: spec.line,
      platforms: AI_PLATFORMS.map((p) => ({
        key: p.key,
        name: p.name,
        ...(p.shortName ? { short_name: p.shortName } : {}),
      })),
    },
    ...(B ? { overall: { brand_level_exposure_rate: summary.brandExposure } } : {}),
    brand: {
      name: spec.brand,
      summary: {
        avg_exposure_rate: htmlRate(truth, summary.exposure),
        avg_positive_mention_rate: htmlRate(truth, summary.positive),
        avg_first_position_rate: htmlRate(truth, summary.first),
        avg_top3_rate: htmlRate(truth, summary.top3),
        avg_top5_rate: htmlRate(truth, summary.top5),
        ...(B ? { product_link: htmlRate(truth, summary.productLink) } : {}),
      },
      tmc_aggregate: tmcAggregate,
      source_top30: htmlSources(truth, AGGREGATE),
      core_competitors: coreCompetitors(truth),
      wordcloud: {
        words: words(truth.wordcloud.words),
        positive: words(truth.wordcloud.positive),
        negative: words(truth.wordcloud.negative),
      },
      platforms,
    },
  };
  if (B) {
    data.core_product_competitors = shuffle(rng, truth.products).map((p) => ({
      name: p.name,
      avg_exposure_rate: p.avg,
    }));
    // Contract 5: per platform (like industry_ranking), or one aggregate list; a brand-level run
    // never reads it, whatever its form.
    data.product_ranking =
      spec.productRanking === 'list'
        ? ([...truth.products]
            .sort((a, b) => b.avg - a.avg)
            .map((p) => ({ name: p.name, exposure_rate: p.avg })) as unknown as DataInput['product_ranking'])
        : Object.fromEntries(AI_PLATFORMS.map((p, i) => [p.key, industryRanking(truth, truth.products, i)]));
  }
  return encodeHtml(data, spec);
}
