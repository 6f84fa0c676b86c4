import { expect, test } from './test-type';
import { ITEM_RULES } from '../../lib/rules';
import { dataForProfile, dataSchema, rawLine } from '../../lib/schema/data';
import { parseWith } from '../../lib/schema/issues';
import { PLATFORMS, baseData, context, looseData } from './builders';

/** A parse of `raw` as the report page's DATA (lib/schema/data.ts). */
const parsed = (raw: unknown) => parseWith(dataSchema, raw, 'report page DATA', 'DATA');

/** Every item's verdict and failing steps for a run whose DATA is `data`. */
function verdicts(data: ReturnType<typeof baseData>, profile: 'A' | 'B' = 'A') {
  const ctx = context({ profile, edit: (d) => Object.assign(d, data) });
  return Object.values(ITEM_RULES).map((rule) => {
    const result = rule(ctx);
    return `${result.item}:${result.verdict}:${result.steps
      .filter((s) => s.verdict === 'fail')
      .map((s) => s.id)
      .join(',')}`;
  });
}

test.describe('docs/contract.md §5: an optional field that is null reads as absent', () => {
  test('overall, meta.topic, meta.position_metric, optional groups and a platform’s source_top30 set to null parse as absent', () => {
    const raw = looseData();
    raw.overall = null;
    raw.meta.topic = null;
    raw.meta.position_metric = null;
    raw.brand.tmc_aggregate.media_name = null;
    const first = Object.keys(raw.brand.platforms)[0]!;
    raw.brand.platforms[first].citation.content_type = null;
    raw.brand.platforms[first].citation.source_top30 = null;
    const data = parsed(raw);
    expect(data.overall).toBeUndefined();
    expect(data.meta.topic).toBeUndefined();
    expect(data.meta.position_metric).toBeUndefined();
    expect(data.brand.tmc_aggregate.media_name).toBeUndefined();
    expect(data.brand.platforms[first]!.citation.content_type).toBeUndefined();
    expect(data.brand.platforms[first]!.citation.source_top30).toBeUndefined();
  });

  test('the rules judge a null optional field exactly as the absent one: same verdicts, same failing steps', () => {
    const withNulls = looseData();
    const absent = looseData();
    const first = Object.keys(withNulls.brand.platforms)[0]!;
    withNulls.brand.platforms[first].citation.publish_time = null;
    delete absent.brand.platforms[first].citation.publish_time;
    // The aggregate lacking a group the platform has fails (docs/contract.md §6), null or absent alike.
    withNulls.brand.tmc_aggregate.content_type = null;
    delete absent.brand.tmc_aggregate.content_type;
    const nullVerdicts = verdicts(parsed(withNulls));
    expect(nullVerdicts).toEqual(verdicts(parsed(absent)));
    expect(nullVerdicts.find((v) => v.startsWith('7:'))).toMatch(/^7:fail:/);
  });

  test('near miss: a null in a field a check reads is no value and fails, never passes; a wrong type is still an error', () => {
    const raw = looseData();
    raw.brand.summary.avg_exposure_rate = null;
    const result = ITEM_RULES[3](context({ edit: (d) => Object.assign(d, parsed(raw)) }));
    expect(result.verdict).toBe('fail');
    const wrong = looseData();
    wrong.meta.position_metric = 'top10';
    expect(() => parsed(wrong)).toThrow(/DATA\.meta\.position_metric/);
    wrong.meta.position_metric = undefined;
    wrong.overall = [];
    expect(() => parsed(wrong)).toThrow(/DATA\.overall/);
  });

  test('spec 9.1.1: meta.line decides the profile, so a line that is not text is an error naming it; null is no line', () => {
    for (const line of [['星河集团', '空气净化器'], 42, { group: '星河集团' }, true]) {
      const raw = looseData();
      raw.meta.line = line;
      expect(() => parsed(raw), JSON.stringify(line)).toThrow(/DATA\.meta\.line/);
    }
    const raw = looseData();
    raw.meta.line = null;
    expect(parsed(raw).meta.line).toBeUndefined();
    raw.meta.line = '星河集团 · 空气净化器';
    expect(parsed(raw).meta.line).toBe('星河集团 · 空气净化器');
  });
});

test.describe('docs/contract.md §5: fields a run does not use are never validated', () => {
  test('a seventh, non-AI platform with a reduced block, and a block meta.platforms does not list: the run is checked, each item judged as without them', () => {
    const raw = looseData();
    const seventh = raw.meta.platforms[6].key as string;
    raw.brand.platforms[seventh] = { note: 'a search engine: no ranking, no citation' };
    raw.brand.platforms.search_engine = 42;
    const data = parsed(raw);
    expect(Object.keys(data.brand.platforms)).toHaveLength(6);
    expect(verdicts(data)).toEqual(verdicts(parsed(baseData())));
  });

  test('7.2 / 9.2 "self (latest figures)" is Profile B\'s per-platform figure: a Profile A run reads the trend point only, so a platform self left out, null, [] (an empty object as PHP writes it) or holding text is no error and every item is judged as with it (HTML-side audit 59f: an error of every item); near miss: a Profile B run reads self and the same DATA is an error naming it', () => {
    const ofProfile = (raw: unknown, profile: 'A' | 'B') =>
      parseWith(dataSchema, dataForProfile(raw, profile), 'report page DATA', 'DATA');
    const baseline = verdicts(ofProfile(baseData(), 'A'));
    const first = PLATFORMS[0]!.key;
    for (const self of [undefined, null, [], { exposure_rate: 'n/a', positive_mention_rate: {} }]) {
      const raw = looseData();
      raw.brand.platforms[first].self = self;
      expect(verdicts(ofProfile(raw, 'A')), JSON.stringify(self)).toEqual(baseline);
      expect(() => ofProfile(raw, 'B'), JSON.stringify(self)).toThrow(
        new RegExp(`DATA\\.brand\\.platforms\\.${first}\\.self`),
      );
    }
  });

  test('near miss: a block of one of the six AI platforms is validated as ever, its issue named in full', () => {
    const raw = looseData();
    const first = raw.meta.platforms[0].key as string;
    raw.brand.platforms[first].industry_ranking = 'none';
    expect(() => parsed(raw)).toThrow(new RegExp(`DATA\\.brand\\.platforms\\.${first}\\.industry_ranking`));
    raw.brand.platforms[first].industry_ranking = [];
    raw.brand.platforms[first].self.exposure_rate = 'n/a';
    expect(() => parsed(raw)).toThrow(/not a rate: "n\/a"/);
  });

  test('a trend date that is no day of the calendar is an error naming the point: item 4 took it for the latest (time audit of 2026-11-28); near miss: 29 February of a leap year parses', () => {
    const raw = looseData();
    const first = raw.meta.platforms[0].key as string;
    const trend = [{ date: '2028-02-29', exposure_rate: 30, positive_mention_rate: 90 }];
    raw.brand.platforms[first].trend = trend;
    expect(() => parsed(raw)).not.toThrow();
    trend[0]!.date = '2026-11-31';
    expect(() => parsed(raw)).toThrow(
      new RegExp(`DATA\\.brand\\.platforms\\.${first}\\.trend\\[0\\]\\.date: .*no such day in the calendar`),
    );
  });

  test('docs/contract.md §4.2: one of the six AI platforms keyed "all" (the aggregate option) is an error naming the field: its figures were judged against the aggregate rows and it pushed the sixth platform out (foolproof audit of 2026-11-28); near miss: a seventh entry keyed "all" is compared by no item and parses', () => {
    const raw = looseData();
    // A generator that writes its platform menu's first option into meta.platforms.
    raw.meta.platforms.unshift({ key: 'all', name: '全部平台' });
    raw.brand.platforms.all = structuredClone(raw.brand.platforms[raw.meta.platforms[1].key]);
    expect(() => parsed(raw)).toThrow(/DATA\.meta\.platforms\[0\]\.key: platform key "all" is not allowed/);
    const seventh = looseData();
    seventh.meta.platforms[6].key = 'all';
    expect(verdicts(parsed(seventh))).toEqual(verdicts(parsed(baseData())));
  });

  test('a share-group value that is none (a count past RATE_MAX, text) is said as a count or share, naming its field', () => {
    const raw = looseData();
    raw.brand.tmc_aggregate.media_category[0].value = '5000000';
    expect(() => parsed(raw)).toThrow(
      /DATA\.brand\.tmc_aggregate\.media_category\[0\]\.value: not a count or share: "5000000" is beyond ±4,000,000/,
    );
  });
});

test.describe('mutation sweep of lib/schema (2026-11-28): what DATA.meta and DATA.brand must hold', () => {
  test('docs/contract.md §5 "platforms: [{ key, name, short_name? }]": a one-letter key and name parse, and a short_name that is text is kept (item 5 matches a column by it)', () => {
    const raw = looseData();
    raw.meta.platforms.push({ key: 'x', name: 'X' });
    raw.meta.platforms[0].short_name = 'DB';
    const data = parsed(raw);
    expect(data.meta.platforms.at(-1)).toEqual({ key: 'x', name: 'X' });
    expect(data.meta.platforms[0]!.short_name).toBe('DB');
  });

  test('docs/contract.md §5: a DATA without platforms or with an empty brand name is an error naming the field, never a run of nothing', () => {
    const noPlatforms = looseData();
    noPlatforms.meta.platforms = [];
    expect(() => parsed(noPlatforms)).toThrow(/DATA\.meta\.platforms: expected at least one platform/);
    const noName = looseData();
    noName.brand.name = '';
    expect(() => parsed(noName)).toThrow(/DATA\.brand\.name/);
  });
});

test.describe('mutation sweep of lib/schema (2026-11-28): the line read before the parse, a platforms record of null', () => {
  test('spec 9.1.1 (meta.line decides the profile): rawLine gives the line that is text, and nothing for a line of another type or no meta', () => {
    expect(rawLine({ meta: { line: 'B-line' } })).toBe('B-line');
    expect(rawLine({ meta: { line: 5 } })).toBeUndefined();
    expect(rawLine({ meta: 'text' })).toBeUndefined();
  });

  test('contract "a DATA with a field of the wrong type ... a reason naming the source and the field": brand.platforms set to null is a schema error naming DATA.brand.platforms, never a TypeError', () => {
    const raw = looseData();
    raw.brand.platforms = null;
    expect(() => parsed(raw)).toThrow(/report page DATA does not match the contract: DATA\.brand\.platforms/);
  });
});
