import type { Data, GroupEntry, PlatformData, PlatformMeta, SourceEntry } from '../../lib/schema/data';
import { productLevelSchema, productLevelView } from '../../lib/schema/product';
import type {
  CompetitorRow,
  PlatformEvidence,
  SourceRow,
  TmcDimension,
  TmcRow,
} from '../../lib/schema/platform';
import type {
  ComparisonRow,
  ItemResult,
  Level,
  Profile,
  RuleContext,
  StepResult,
} from '../../lib/rules/types';

/**
 * A minimal valid RuleContext whose HTML and platform sides agree on items 5 to 12 in both profiles.
 * Tests change one thing with `edit` and assert the verdict that change must produce.
 */

/** Six AI answer platforms (columns 3 to 5 have longer names on the platform screen) and one more. */
export const PLATFORMS: PlatformMeta[] = [
  { key: 'doubao', name: '豆包' },
  { key: 'deepseek', name: 'DeepSeek' },
  { key: 'yuanbao', name: '元宝' },
  { key: 'wenxin', name: '文心' },
  { key: 'qwen', name: '通义' },
  { key: 'kimi', name: 'Kimi' },
  { key: 'search', name: '百度搜索' },
];
export const AI_KEYS = PLATFORMS.slice(0, 6).map((p) => p.key);
export const PLATFORM_COLUMNS = ['豆包', 'DeepSeek', '腾讯元宝', '文心一言', '通义千问', 'Kimi'];

export const OWN_BRAND = '清泉乳业';

/** name, HTML aggregate rate, platform all-platform column, rates on the six platforms (null: no exposure). */
export const BRANDS: { name: string; html: number; platform: number; perPlatform: (number | null)[] }[] = [
  { name: OWN_BRAND, html: 30.12, platform: 30.1, perPlatform: [40, 35.5, null, 20, 25, 30] },
  { name: '蓝山乳业', html: 25.5, platform: 25.5, perPlatform: [30, 20, 25, null, 22.22, 18] },
  { name: '白云牧场', html: 20.04, platform: 20, perPlatform: [21, 19, 20, 20, 20, 20.5] },
  { name: '青禾', html: 12, platform: 12, perPlatform: [null, null, 10, 14, 12, 12] },
];

/** Platform API order with scrambled `rank` values: never the screen order (7.6). */
const API_ORDER = ['蓝山乳业', OWN_BRAND, '青禾', '白云牧场'];

/** A competitor row; with no per-platform rates given, each of the six platform columns has none. */
export function competitorRow(
  name: string,
  exposureRate: number | null,
  perPlatform: (number | null)[] = PLATFORM_COLUMNS.map(() => null),
  kind: 'brand' | 'product' = 'brand',
  rank = 1,
): CompetitorRow {
  return {
    kind,
    name,
    rank,
    exposure_rate: exposureRate,
    platform_rates: perPlatform.map((rate, i) => ({ name: PLATFORM_COLUMNS[i] ?? `column ${i + 1}`, rate })),
  };
}

export const HTML_GROUPS: Record<TmcDimension, GroupEntry[]> = {
  content_type: [
    { name: '图文', value: 520 },
    { name: '视频', value: 300 },
    { name: '问答', value: 180 },
  ],
  publish_time: [
    { name: '近一周', value: 40 },
    { name: '近一月', value: 35 },
    { name: '无时间', value: 5 },
    { name: '更早', value: 20 },
  ],
  media_category: [
    { name: '新闻', value: 500 },
    { name: '自媒体', value: 300 },
    { name: '百科', value: 200 },
  ],
  media_name: [
    { name: '人民网', value: 600 },
    { name: '新浪', value: 300 },
    { name: '未知', value: 100 },
  ],
};

export const PLATFORM_GROUPS: Record<TmcDimension, GroupEntry[]> = {
  content_type: [
    { name: '图文', value: 52 },
    { name: '视频', value: 30 },
    { name: '问答', value: 18 },
  ],
  publish_time: [
    { name: '近一周', value: 40 },
    { name: '近一月', value: 35 },
    { name: '无时间', value: 5 },
    { name: '更早', value: 20 },
  ],
  media_category: [
    { name: '新闻', value: 50 },
    { name: '自媒体', value: 30 },
    { name: '百科', value: 20 },
  ],
  media_name: [
    { name: '人民网', value: 66.7 },
    { name: '新浪', value: 33.3 },
  ],
};

const DIMENSIONS = Object.keys(HTML_GROUPS) as TmcDimension[];

export const HTML_SOURCES: SourceEntry[] = [
  { title: '清泉乳业获奖', channel: '新闻', cite_count: 9 },
  { title: '乳业百科', channel: '百科', cite_count: 5 },
  { title: '哪款牛奶好', channel: '问答', cite_count: 5 },
];

/** API order puts an equal-count row first and scrambles `rank`: stable sort by cite_count gives the HTML order. */
export const PLATFORM_SOURCES: SourceRow[] = [
  { title: '乳业百科', channel: '百科', cite_count: 5, rank: 9 },
  { title: '清泉乳业获奖', channel: '新闻', cite_count: 9, rank: 7 },
  { title: '哪款牛奶好', channel: '问答', cite_count: 5, rank: 8 },
];

export function tmcRows(platform: string, dimension: TmcDimension, entries: GroupEntry[]): TmcRow[] {
  return entries.map((e) => ({ platform, dimension, name: e.name, value: e.value }));
}

function platformData(index: number): PlatformData {
  return {
    self: {
      exposure_rate: 30,
      top3_rate: null,
      top5_rate: null,
      first_position_rate: null,
      positive_mention_rate: 90,
      brand_exposure_rate: null,
      product_link_rate: null,
    },
    trend: [],
    industry_ranking: BRANDS.filter((b) => b.perPlatform[index] !== null).map((b) => ({
      name: b.name,
      exposure_rate: b.perPlatform[index] ?? null,
    })),
    citation: { ...structuredClone(HTML_GROUPS), source_top30: structuredClone(HTML_SOURCES) },
  };
}

/**
 * A fresh `baseData()` typed loosely, for a test that breaks DATA where its type would not let it
 * (a field of the wrong type, one removed, a platform added): what the schema then says is the test.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- DATA broken on purpose, anywhere
export const looseData = (): Record<string, any> => baseData();

export function baseData(): Data {
  return {
    meta: { platforms: structuredClone(PLATFORMS) },
    brand: {
      name: OWN_BRAND,
      summary: {
        avg_exposure_rate: BRANDS[0]!.html,
        avg_positive_mention_rate: 90,
        avg_first_position_rate: null,
        avg_top3_rate: null,
        avg_top5_rate: null,
        product_link: null,
      },
      tmc_aggregate: structuredClone(HTML_GROUPS),
      source_top30: structuredClone(HTML_SOURCES),
      core_competitors: BRANDS.slice(1).map((b) => ({ name: b.name, avg_exposure_rate: b.html })),
      wordcloud: {
        words: [
          { word: '品质', weight: 9 },
          { word: '口感', weight: 5 },
          { word: '价格', weight: 2 },
        ],
        positive: [{ word: '品质' }, { word: '口感' }],
        negative: [],
      },
      platforms: Object.fromEntries(AI_KEYS.map((key, i) => [key, platformData(i)])),
    },
  };
}

export function basePlatform(): PlatformEvidence {
  const byName = new Map(BRANDS.map((b) => [b.name, b]));
  const options = ['all', ...AI_KEYS];
  return {
    snapshot: [],
    competitor: API_ORDER.map((name, i) => {
      const b = byName.get(name)!;
      return competitorRow(b.name, b.platform, b.perPlatform, 'brand', i + 1);
    }),
    tmc: options.flatMap((p) => DIMENSIONS.flatMap((d) => tmcRows(p, d, PLATFORM_GROUPS[d]))),
    sources: Object.fromEntries(options.map((p) => [p, structuredClone(PLATFORM_SOURCES)])),
    wordcloud: {
      words: [
        { word: '价格', weight: 1 },
        { word: '品质', weight: 7 },
        { word: '口感', weight: 3 },
      ],
      positive: [
        { word: '口感', weight: 1 },
        { word: '品质', weight: 2 },
      ],
      negative: [],
    },
  };
}

export type Edit = (data: Data, platform: PlatformEvidence) => void;

export interface ContextOptions {
  profile?: Profile;
  level?: Level;
  edit?: Edit;
}

/**
 * A rule context. At the product level, DATA's product fields are parsed as a product-level run's
 * collection parses them (`Data.product`, lib/schema/data.ts `dataSchemaFor('product')`).
 */
export function context({ profile = 'A', level = 'brand', edit }: ContextOptions = {}): RuleContext {
  const data = baseData();
  const platform = basePlatform();
  edit?.(data, platform);
  const product = {
    core_product_competitors: data.core_product_competitors,
    product_ranking: data.product_ranking,
  };
  const read = level === 'product' ? { product: productLevelView(productLevelSchema.parse(product)) } : {};
  return { profile, level, reportType: 'monitor', data: { ...data, ...read }, platform };
}

/** Replaces one group on both sides for one platform option (`all` or a key). */
export function setGroup(
  data: Data,
  platform: PlatformEvidence,
  key: string,
  dimension: TmcDimension,
  html: GroupEntry[],
  api: GroupEntry[],
): void {
  if (key === 'all') data.brand.tmc_aggregate[dimension] = html;
  else data.brand.platforms[key]!.citation[dimension] = html;
  platform.tmc = [
    ...platform.tmc.filter((r) => !(r.platform === key && r.dimension === dimension)),
    ...tmcRows(key, dimension, api),
  ];
}

export function step(result: ItemResult, id: string): StepResult {
  const found = result.steps.find((s) => s.id === id);
  if (!found)
    throw new Error(`no step ${id} in item ${result.item}: ${result.steps.map((s) => s.id).join(', ')}`);
  return found;
}

export function row(result: ItemResult, stepId: string, key: string): ComparisonRow {
  const s = step(result, stepId);
  const found = s.rows.find((r) => r.key === key);
  if (!found) throw new Error(`no row ${key} in step ${stepId}: ${s.rows.map((r) => r.key).join(' | ')}`);
  return found;
}

/** Ids of the failing steps of an item (a platform, an option), for assertions that name what failed. */
export function failingSteps(result: Pick<ItemResult, 'steps'>): string[] {
  return result.steps.filter((s) => s.verdict === 'fail').map((s) => s.id);
}

/** Keys of the failing rows of a step, for assertions that name what failed. */
export function failingKeys(result: ItemResult, stepId: string): string[] {
  return step(result, stepId)
    .rows.filter((r) => r.verdict === 'fail')
    .map((r) => r.key);
}
