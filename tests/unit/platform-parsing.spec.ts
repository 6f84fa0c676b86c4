import { expect, test } from './test-type';
import { unwrapEnvelope } from '../../lib/platform/envelope';
import { builtDiagnosisBatchId, confirmBuiltBatch, resolveBatch } from '../../lib/platform/batches';
import { parseRate, RATE_MAX } from '../../lib/schema/rate';
import { decimalGap, SCALE } from '../../lib/rules/decimal';
import { batchItem, batchList, metricsTables, readDuplicates } from '../../lib/schema/platform';
import { parseWith, SchemaError } from '../../lib/schema/issues';
import { KNOWN_SECRET_PARAM_NAMES, redactText, redactUrl } from '../../lib/redaction/url';
import { dataSchema, dataSchemaFor } from '../../lib/schema/data';
import { ITEM_RULES } from '../../lib/rules';
import { baseData, basePlatform, context, looseData, row } from './builders';
import type { TmcDimension } from '../../lib/schema/platform';

/** Two tmc rows of one platform, dimension and name (values 3 and "4%": a string rate is permitted). */
function repeatedTmc(platform: string, dimension: TmcDimension, name: string) {
  return [
    { platform, dimension, name, value: 3 },
    { platform, dimension, name, value: '4%' },
  ];
}

test.describe('docs/contract.md §4: envelope', () => {
  test('a bare payload passes through', () => {
    expect(unwrapEnvelope({ rows: [] })).toEqual({ ok: true, payload: { rows: [] } });
    expect(unwrapEnvelope([1])).toEqual({ ok: true, payload: [1] });
  });

  test('a wrapped payload with code 0 or 200 is unwrapped (msg or message)', () => {
    expect(unwrapEnvelope({ code: 0, msg: 'ok', data: { rows: [1] } })).toEqual({
      ok: true,
      payload: { rows: [1] },
    });
    expect(unwrapEnvelope({ code: 200, message: 'success', data: [] })).toEqual({ ok: true, payload: [] });
  });

  test('"A payload may come bare": a bare payload carrying a success code of its own is read as the payload', () => {
    const rows = [{ platform: 'all', exposure_rate: '36%' }];
    expect(unwrapEnvelope({ code: 0, msg: 'ok', rows })).toEqual({
      ok: true,
      payload: { code: 0, msg: 'ok', rows },
    });
    expect(unwrapEnvelope({ rows: [], total: 0, code: 200 })).toEqual({
      ok: true,
      payload: { rows: [], total: 0, code: 200 },
    });
    // Read as the payload, it is then validated as one: a code and a message alone lack the rows.
    const alone = unwrapEnvelope({ code: 0, msg: 'ok' });
    expect(alone.ok).toBe(true);
    expect(() =>
      parseWith(metricsTables.snapshot, alone.ok && alone.payload, 'GET snapshot', 'payload'),
    ).toThrow(/GET snapshot does not match the contract: payload\.rows: /);
    expect(unwrapEnvelope({ code: 1, msg: 'no', rows: [] })).toMatchObject({ ok: false, code: 1 });
  });

  test('any other code is an API error with its code and message', () => {
    expect(unwrapEnvelope({ code: 500, msg: '服务繁忙', data: null })).toEqual({
      ok: false,
      code: 500,
      message: '服务繁忙',
    });
    expect(unwrapEnvelope({ code: 40101, message: 'token expired' })).toEqual({
      ok: false,
      code: 40101,
      message: 'token expired',
    });
  });
});

test.describe('docs/contract.md §4.2 / 5: rates', () => {
  test('numbers and numeric strings, with an optional trailing %', () => {
    expect(parseRate(23.4)).toBe(23.4);
    expect(parseRate('23.4')).toBe(23.4);
    expect(parseRate('23.4%')).toBe(23.4);
    expect(parseRate(' 7 % ')).toBe(7);
    expect(parseRate('0')).toBe(0);
  });

  test('a numeric string in exponent form is a number too ("5.0E-4": Java prints any rate below 0.001 so)', () => {
    expect(parseRate('5.0E-4')).toBe(0.0005);
    expect(parseRate('1e2%')).toBe(100);
    expect(parseRate('2.5e+1')).toBe(25);
    for (const wrong of ['1e', 'e5', '1e2.5', '1e1234', '1E-4E2'])
      expect(parseRate(wrong), wrong).toBeInstanceOf(Error);
  });

  test('an exponent has at most three digits, as every double printed has (e-324 to e308): "1e-999" reads as 0, "1e999" is not finite, a fourth digit is not a number as printed', () => {
    expect(parseRate('1e-999')).toBe(0);
    expect((parseRate('1e999') as Error).message).toBe('not a rate: "1e999" is not a finite number');
    for (const wrong of ['1e1234', '1e-1000', '5.0E+0001'])
      expect((parseRate(wrong) as Error).message, wrong).toBe(`not a rate: ${JSON.stringify(wrong)}`);
  });

  test('a snapshot or tmc row whose platform is missing or not text says what it expected', () => {
    for (const [platform, said] of [
      [undefined, 'got nothing'],
      [3, 'got 3'],
    ] as const) {
      const bad = { rows: [{ platform, exposure_rate: 1 }] };
      expect(() => parseWith(metricsTables.snapshot, bad, 'GET snapshot', 'payload')).toThrow(
        `payload.rows[0].platform: expected "all" or a platform key (a string), ${said}`,
      );
    }
  });

  test('a value beyond what the checks compare exactly (±4,000,000 points, docs/rules.md §D6) is not a rate, saying so: never Infinity, never a gap of NaN', () => {
    for (const [value, said] of [
      ['1e400', 'not a rate: "1e400" is not a finite number'],
      ['-1e400', 'not a rate: "-1e400" is not a finite number'],
      ['1e300', 'not a rate: "1e300" is beyond ±4,000,000'],
      [1e300, 'not a rate: 1e+300 is beyond ±4,000,000'],
      ['4000000.01', 'is beyond ±4,000,000'],
    ] as const) {
      const parsed = parseRate(value);
      expect(parsed, String(value)).toBeInstanceOf(Error);
      expect((parsed as Error).message).toContain(said);
    }
    // The edge, and what stays exact up to it: every gap of 0.05 between two-decimal values is 0.05.
    expect(parseRate('4000000')).toBe(RATE_MAX);
    expect(parseRate(-RATE_MAX)).toBe(-RATE_MAX);
    expect(RATE_MAX * SCALE).toBeLessThanOrEqual(Number.MAX_SAFE_INTEGER);
    for (let cents = 0; cents < 1000; cents++) {
      const a = (RATE_MAX * 100 - cents) / 100;
      expect(decimalGap(a, (RATE_MAX * 100 - cents - 5) / 100), String(a)).toBe(0.05);
    }
  });

  test('null, "" and "-" mean no value', () => {
    expect(parseRate(null)).toBeNull();
    expect(parseRate('')).toBeNull();
    expect(parseRate('-')).toBeNull();
    expect(parseRate(undefined)).toBeNull();
  });

  test('anything else is an error, never NaN', () => {
    expect(parseRate('abc')).toBeInstanceOf(Error);
    expect(parseRate('12.3.4')).toBeInstanceOf(Error);
    expect(parseRate(true)).toBeInstanceOf(Error);
    expect(parseRate(Number.NaN)).toBeInstanceOf(Error);
  });

  test('a payload with a wrong type names the endpoint and the field', () => {
    const bad = { rows: [{ title: 't', channel: 'c', cite_count: 'many', rank: 1 }] };
    expect(() => parseWith(metricsTables.source, bad, 'GET source', 'payload')).toThrow(
      /GET source does not match the contract: payload\.rows\[0\]\.cite_count/,
    );
    expect(() => parseWith(metricsTables.tmc, {}, 'GET tmc', 'payload')).toThrow(/payload\.rows: /);
    expect(() =>
      parseWith(
        metricsTables.snapshot,
        { rows: [{ platform: 'all', exposure_rate: 'n/a' }] },
        'GET snapshot',
        'payload',
      ),
    ).toThrow(/payload\.rows\[0\]\.exposure_rate: not a rate/);
  });
});

test.describe('docs/contract.md §4.1 / spec 9.1: batch resolution', () => {
  const items = [
    { batchDate: '2026-11-19', project: 'P1', l1CrawlBatchIds: [{ batchId: 'old' }] },
    { batchDate: '2026-11-20', project: 'P2', l1CrawlBatchIds: [{ batchId: 'other-project' }] },
    { batchDate: '2026-11-20', project: 'P1', l1CrawlBatchIds: [{ batchId: 'b1' }, { batchId: 'b2' }] },
  ];
  const run = {
    projectId: 'P1',
    batchDate: '2026-11-20',
    reportType: 'monitor' as const,
    profile: 'A' as const,
    timeZone: 'Asia/Shanghai',
  };

  test('the item with the run batchDate and project is chosen; its ids in order', () => {
    expect(resolveBatch(items, run)).toMatchObject({ kind: 'found', batchIds: ['b1', 'b2'] });
  });

  test('beyond contract §4.1 (project a string): a project written as a number is read as its digits (the demo no longer serves one)', () => {
    const numbered = [
      { batchDate: '2026-11-20', project: 102201, l1CrawlBatchIds: [{ batchId: 'n1' }] },
      { batchDate: '2026-11-20', project: 1022010, l1CrawlBatchIds: [{ batchId: 'other' }] },
    ];
    const parsed = parseWith(batchList, numbered, 'GET batch', 'payload');
    expect(resolveBatch(parsed, { ...run, projectId: '102201' })).toMatchObject({
      kind: 'found',
      batchIds: ['n1'],
    });
    expect(batchItem.parse(numbered[0]).project).toBe('102201');
  });

  test('no matching item in Profile A is an error naming date and project', () => {
    const r = resolveBatch(items, { ...run, batchDate: '2026-11-21' });
    expect(r).toMatchObject({ kind: 'error' });
    expect(r.kind === 'error' && r.reason).toContain('no batch for batchDate 2026-11-21 and project P1');
  });

  test('9.1.2: Profile B diagnosis with no batch builds <BRANDCODE>-HIST-{projectId}-{YYYYMMDD}-D', () => {
    expect(builtDiagnosisBatchId('XH', 'P31', '2026-11-20')).toBe('XH-HIST-P31-20261120-D');
    expect(
      resolveBatch([], { ...run, profile: 'B', reportType: 'diagnosis', brandCode: 'XH' }),
    ).toMatchObject({
      kind: 'build',
      builtId: 'XH-HIST-P1-20261120-D',
    });
  });

  test('4.1 / 9.1.2 "for reportType=diagnosis the list may be empty": an item of the run day and project with no l1CrawlBatchIds lists no batch, so Profile B diagnosis builds <BRANDCODE>-HIST-{projectId}-{YYYYMMDD}-D (review 59e: a platform error); near miss: Profile A and Profile B monitor still fail naming the item', () => {
    const empty = [
      { batchDate: '2026-11-20', project: 'P2', l1CrawlBatchIds: [{ batchId: 'other' }] },
      { batchDate: '2026-11-20', project: 'P1', l1CrawlBatchIds: [] },
    ];
    expect(resolveBatch(empty, { ...run, profile: 'B', reportType: 'diagnosis', brandCode: 'XH' })).toEqual({
      kind: 'build',
      builtId: 'XH-HIST-P1-20261120-D',
      note: "the batch list's item for batchDate 2026-11-20 and project P1 (payload[1]) lists no l1CrawlBatchIds: built XH-HIST-P1-20261120-D (spec 9.1.2)",
    });
    for (const other of [
      { profile: 'A', reportType: 'diagnosis' },
      { profile: 'B', reportType: 'monitor' },
    ] as const)
      expect(resolveBatch(empty, { ...run, ...other, brandCode: 'XH' })).toMatchObject({
        kind: 'error',
        reason: expect.stringContaining('has no l1CrawlBatchIds'),
      });
  });

  test('docs/contract.md §4.1: an item of the run day that lists no l1CrawlBatchIds and builds the id still names every other item of the day and project with ids in its note (review 59i: built in silence beside a timed item listing SX-1); near miss: another empty item is not named', () => {
    const items = [
      { batchDate: '2026-11-20', project: 'P1', l1CrawlBatchIds: [] },
      { batchDate: '2026-11-20 08:00:00', project: 'P1', l1CrawlBatchIds: [{ batchId: 'SX-1' }] },
      { batchDate: '2026-11-20 09:00:00', project: 'P1', l1CrawlBatchIds: [] },
    ];
    const built = resolveBatch(items, { ...run, profile: 'B', reportType: 'diagnosis', brandCode: 'XH' });
    expect(built).toEqual({
      kind: 'build',
      builtId: 'XH-HIST-P1-20261120-D',
      note: 'the batch list\'s item for batchDate 2026-11-20 and project P1 (payload[0]) lists no l1CrawlBatchIds: built XH-HIST-P1-20261120-D (spec 9.1.2); batch list: 1 other item(s) for the same day and project left aside: payload[1] dated "2026-11-20 08:00:00" with SX-1; the built id was tried (an item dated exactly wins over a timed one, and among equals the first listed: docs/contract.md §4.1)',
    });
  });

  test('9.1.2 is Profile B diagnosis only: Profile B monitor and Profile A diagnosis are errors', () => {
    expect(resolveBatch([], { ...run, profile: 'B', reportType: 'monitor', brandCode: 'XH' }).kind).toBe(
      'error',
    );
    expect(resolveBatch([], { ...run, profile: 'A', reportType: 'diagnosis', brandCode: 'XH' }).kind).toBe(
      'error',
    );
  });

  test('9.1.2 without a brand code is an error that says which setting is missing', () => {
    const r = resolveBatch([], { ...run, profile: 'B', reportType: 'diagnosis' });
    expect(r.kind === 'error' && r.reason).toContain('L1_PROFILE_B_BRAND_CODE');
  });

  test("\"The item whose batchDate and project equal the run's is chosen\": another project's or day's malformed item never fails the list", () => {
    const listed = [
      { batchDate: '2026-11-20', project: 'P2', l1CrawlBatchIds: null },
      { batchDate: null, project: 'P2', l1CrawlBatchIds: [] },
      { batchDate: '2026-11-19', project: { id: 1 } },
      null,
      { batchDate: '2026-11-20', project: 'P1', l1CrawlBatchIds: [{ batchId: 'b1' }] },
    ];
    const parsed = parseWith(batchList, listed, 'GET batch', 'payload');
    expect(resolveBatch(parsed, run)).toMatchObject({ kind: 'found', batchIds: ['b1'] });
    // Unreadable items are counted when no item is the run's, so a renamed field is seen.
    const r = resolveBatch(parsed.slice(0, 4), run);
    expect(r.kind === 'error' && r.reason).toContain(
      '(4 item(s), 3 whose batchDate or project cannot be read)',
    );
  });

  test('"The item whose batchDate and project equal the run\'s is chosen": the run\'s own item is validated strictly, naming the field', () => {
    const listed = [
      { batchDate: '2026-11-19', project: 'P1', l1CrawlBatchIds: [{ batchId: 'old' }] },
      { batchDate: '2026-11-20', project: 'P1', l1CrawlBatchIds: null },
    ];
    const r = resolveBatch(parseWith(batchList, listed, 'GET batch', 'payload'), run);
    expect(r.kind === 'error' && r.reason).toMatch(
      /^GET \/api\/geo_label\/project\/batch: the item for 2026-11-20 \/ project P1 does not match the contract: payload\[1\]\.l1CrawlBatchIds: /,
    );
    const badId = [{ batchDate: '2026-11-20', project: 'P1', l1CrawlBatchIds: [{ batchId: 7 }] }];
    expect(resolveBatch(badId, run)).toMatchObject({ kind: 'error', failure: 'platform' });
    expect(JSON.stringify(resolveBatch(badId, run))).toContain('payload[0].l1CrawlBatchIds[0].batchId');
  });

  test('"batchDate … equal the run\'s": the date matches exactly, a time part may follow, nothing else', () => {
    const dated = (batchDate: string) => [{ batchDate, project: 'P1', l1CrawlBatchIds: [{ batchId: 'x' }] }];
    for (const near of ['2026-11-201', '2026112012', '2026-11-20x', '2026-11-20 late', '2026-11-2'])
      expect(resolveBatch(dated(near), run).kind, near).toBe('error');
    for (const same of ['2026-11-20', '20261120', '2026-11-20T08:00:00Z', '2026-11-20 23:00:00'])
      expect(resolveBatch(dated(same), run).kind, same).toBe('found');
  });

  test('docs/contract.md §4.1 "among equals the first listed": the choice is kept, and a note names every other item of the day and project with other ids (the first won silently: foolproof audit of 2026-11-28); near miss: the same ids again, or items of another day or project, add no note', () => {
    const item = (batchDate: string, ids: unknown, project = 'P1') => ({
      batchDate,
      project,
      l1CrawlBatchIds: ids,
    });
    const ids = (...batchIds: string[]) => batchIds.map((batchId) => ({ batchId }));
    const rerun = [item('2026-11-20', ids('first')), item('2026-11-20', ids('rerun', 'rerun-2'))];
    expect(resolveBatch(rerun, run)).toMatchObject({
      kind: 'found',
      batchIds: ['first'],
      aside:
        'batch list: 1 other item(s) for the same day and project left aside: payload[1] dated "2026-11-20" with rerun,rerun-2; first was chosen (an item dated exactly wins over a timed one, and among equals the first listed: docs/contract.md §4.1)',
    });
    // The exact item wins over a timed one listed before it, which is named; so is one whose ids cannot be read.
    const timed = [
      item('2026-11-20 23:00:00', ids('late')),
      item('2026-11-20', ids('exact')),
      item('20261120', null),
    ];
    const aside = resolveBatch(timed, run);
    expect(aside).toMatchObject({ kind: 'found', batchIds: ['exact'] });
    expect(aside.kind === 'found' && aside.aside).toContain(
      'left aside: payload[0] dated "2026-11-20 23:00:00" with late; payload[2] dated "20261120" with ids that cannot be read; exact was chosen',
    );
    const near = [
      item('2026-11-20', ids('b1', 'b2')),
      item('2026-11-20T00:00:00+08:00', ids('b1', 'b2')),
      item('2026-11-19', ids('old')),
      item('2026-11-20', ids('other-project'), 'P2'),
    ];
    const quiet = resolveBatch(near, run);
    expect(quiet).toMatchObject({ kind: 'found', batchIds: ['b1', 'b2'] });
    expect(quiet).not.toHaveProperty('aside');
    // A thousand items of the day name five, and count the rest.
    const many = [
      item('2026-11-20', ids('b1')),
      ...Array.from({ length: 1000 }, (_, i) => item('2026-11-20', ids(`r${i}`))),
    ];
    const counted = resolveBatch(many, run);
    expect(counted.kind === 'found' && counted.aside).toContain('1000 other item(s)');
    expect(counted.kind === 'found' && counted.aside).toContain('with r4 and 995 more; b1 was chosen');
    // The same ids in another order are another first id (the word cloud's): named.
    const reordered = resolveBatch([near[0]!, item('2026-11-20', ids('b2', 'b1'))], run);
    expect(reordered.kind === 'found' && reordered.aside).toContain(
      'payload[1] dated "2026-11-20" with b2,b1',
    );
  });

  test('the note of the items left aside stays short whatever their ids: each item names its first 3 ids, each cut at 100 characters, and counts the rest, so the chosen ids still end the note read in 500 characters (notes are shown so: fixtures/check.ts noteLines)', () => {
    const many = Array.from({ length: 20000 }, (_, i) => ({ batchId: `rerun-${i}` }));
    const long = [{ batchId: 'x'.repeat(100000) }];
    const items = [
      { batchDate: '2026-11-20', project: 'P1', l1CrawlBatchIds: [{ batchId: 'first' }] },
      { batchDate: '2026-11-20', project: 'P1', l1CrawlBatchIds: many },
      { batchDate: '2026-11-20', project: 'P1', l1CrawlBatchIds: long },
    ];
    const resolved = resolveBatch(items, run);
    expect(resolved).toMatchObject({ kind: 'found', batchIds: ['first'] });
    const { aside } = resolved as { aside: string };
    expect(aside.length).toBeLessThan(500);
    expect(aside).toContain(
      'payload[1] dated "2026-11-20" with rerun-0,rerun-1,rerun-2 and 19997 more id(s);',
    );
    expect(aside).toContain(`payload[2] dated "2026-11-20" with ${'x'.repeat(100)}… (100000 characters);`);
    expect(aside).toContain('first was chosen');
  });

  test("docs/contract.md §4.1: a batchDate written as an instant with a zone names its day in L1_TIME_ZONE, not its UTC day (Java writes Beijing midnight of 11-20 as 2026-11-19T16:00:00.000Z; the next China day's batch was chosen: foolproof audit of 2026-11-28); near miss: a date or a local date-time keeps its written day", () => {
    const dated = (...batchDates: string[]) =>
      batchDates.map((batchDate, i) => ({
        batchDate,
        project: 'P1',
        l1CrawlBatchIds: [{ batchId: `b${i}` }],
      }));
    const java = dated('2026-11-19T16:00:00.000Z', '2026-11-20T16:00:00.000Z');
    expect(resolveBatch(java, run)).toMatchObject({
      kind: 'found',
      batchIds: ['b0'],
      note: expect.stringContaining('(item dated "2026-11-19T16:00:00.000Z", 2026-11-20 in Asia/Shanghai)'),
    });
    expect(resolveBatch(java, { ...run, batchDate: '2026-11-21' })).toMatchObject({ batchIds: ['b1'] });
    // The same instants in UTC name their written day; offsets and compact dates are read alike.
    expect(resolveBatch(java, { ...run, timeZone: 'UTC' })).toMatchObject({ batchIds: ['b1'] });
    for (const same of [
      '2026-11-20T00:00+08:00',
      '20261119T16:00:00Z',
      '2026-11-20T08:00:00Z',
      '2026-11-19 23:59:59-0100',
    ])
      expect(resolveBatch(dated(same), run), same).toMatchObject({ kind: 'found' });
    for (const other of ['2026-11-20T16:00:00Z', '2026-11-19T15:59:59.999999Z', '2026-11-20T00:00+09:30'])
      expect(resolveBatch(dated(other), run).kind, other).toBe('error');
    // Not an instant: a time or an offset out of range is an item whose batchDate cannot be read.
    for (const broken of ['2026-11-20T25:00:00Z', '2026-11-20T08:00:00+99:00'])
      expect(resolveBatch(dated(broken), run)).toMatchObject({
        kind: 'error',
        reason: expect.stringContaining('1 whose batchDate or project cannot be read'),
      });
    // A local date-time (no zone) keeps its written day, whatever L1_TIME_ZONE is.
    for (const timeZone of ['Asia/Shanghai', 'UTC', 'America/Los_Angeles'])
      for (const local of ['2026-11-20', '2026-11-20 23:00:00', '2026-11-20T00:30:00'])
        expect(resolveBatch(dated(local), { ...run, timeZone }), `${local} ${timeZone}`).toMatchObject({
          batchIds: ['b0'],
        });
  });

  test('"batchDate … equal the run\'s": an item dated exactly wins over one dated with a time of that day, listed first', () => {
    const listed = [
      { batchDate: '2026-11-20 23:00:00', project: 'P1', l1CrawlBatchIds: [{ batchId: 'late' }] },
      { batchDate: '2026-11-20', project: 'P1', l1CrawlBatchIds: [{ batchId: 'exact' }] },
    ];
    expect(resolveBatch(listed, run)).toMatchObject({ kind: 'found', batchIds: ['exact'] });
    expect(resolveBatch(listed.slice(0, 1), run)).toMatchObject({
      kind: 'found',
      batchIds: ['late'],
      note: expect.stringContaining('(item dated "2026-11-20 23:00:00")'),
    });
  });

  test('9.1.3: the rows’ crawlBatchId is authoritative', () => {
    const rows = [{ platform: 'all', crawlBatchId: 'XH-SX-HIST-P1-20261120-D' }] as never[];
    expect(confirmBuiltBatch('XH-HIST-P1-20261120-D', rows)).toMatchObject({
      kind: 'found',
      batchIds: ['XH-SX-HIST-P1-20261120-D'],
    });
  });

  test('9.1.3 "the actual crawlBatchId is authoritative": an aggregate row naming the ids joined (A,B) and platform rows naming A make the ids A and B, once each, never "A,B" as one id that the word cloud is asked with (review 59e); near miss: rows naming A and B apart give the same', () => {
    const joined = [
      { platform: 'all', crawlBatchId: 'XH-SX-A, XH-SX-B' },
      { platform: 'doubao', crawlBatchId: 'XH-SX-A' },
    ] as never[];
    const apart = [
      { platform: 'all', crawlBatchId: 'XH-SX-A' },
      { platform: 'doubao', crawlBatchId: 'XH-SX-B' },
    ] as never[];
    for (const rows of [joined, apart])
      expect(confirmBuiltBatch('XH-HIST-P1-20261120-D', rows)).toMatchObject({
        kind: 'found',
        batchIds: ['XH-SX-A', 'XH-SX-B'],
        note: expect.stringContaining('from the snapshot: XH-SX-A,XH-SX-B (spec 9.1.3)'),
      });
  });

  test('8.1.1 / 9.1.2: empty rows for the built id → stop and ask (needs-input), no other prefix', () => {
    const r = confirmBuiltBatch('XH-HIST-P1-20261120-D', []);
    expect(r.kind).toBe('needs-input');
    expect(r.kind === 'needs-input' && r.reason).toContain('no other prefix is tried');
  });
});

test.describe('docs/contract.md §4.2: crawlBatchId and missing rate keys', () => {
  test('"crawlBatchId": string (spec 9.1.3 authoritative): a number is read only while it is a safe integer', () => {
    const snapshot = (id: string) =>
      parseWith(
        metricsTables.snapshot,
        JSON.parse(`{"rows":[{"platform":"all","crawlBatchId":${id}}]}`),
        'GET snapshot',
        'payload',
      );
    expect(snapshot('"12345678901234567890"').rows[0]!.crawlBatchId).toBe('12345678901234567890');
    expect(snapshot('9007199254740991').rows[0]!.crawlBatchId).toBe('9007199254740991');
    expect(() => snapshot('12345678901234567890')).toThrow(
      /payload\.rows\[0\]\.crawlBatchId: the number 12345678901234567000 is beyond 2\^53, where JSON numbers lose digits/,
    );
    expect(() => snapshot('12.5')).toThrow(
      /payload\.rows\[0\]\.crawlBatchId: the number 12\.5 is not an integer/,
    );
  });

  test('"a missing key means no value" for competitor exposure_rate and tmc value; a check that needs the value fails', () => {
    const competitor = parseWith(
      metricsTables.competitor,
      { rows: [{ kind: 'brand', name: '蓝山乳业', rank: 1, platform_rates: [] }] },
      'GET competitor',
      'payload',
    ).rows[0]!;
    expect(competitor.exposure_rate).toBeNull();
    const item5 = ITEM_RULES[5](
      context({
        edit: (_, p) =>
          (p.competitor.find((r) => r.name === '蓝山乳业')!.exposure_rate = competitor.exposure_rate),
      }),
    );
    expect(row(item5, '5.1', '蓝山乳业 · all-platform rate')).toMatchObject({
      platform: null,
      verdict: 'fail',
    });

    const tmc = parseWith(
      metricsTables.tmc,
      { rows: [{ platform: 'all', dimension: 'content_type', name: '视频' }] },
      'GET tmc',
      'payload',
    ).rows[0]!;
    expect(tmc.value).toBeNull();
    const item7 = ITEM_RULES[7](
      context({
        edit: (_, p) =>
          (p.tmc.find(
            (r) => r.platform === 'all' && r.dimension === 'content_type' && r.name === '视频',
          )!.value = tmc.value),
      }),
    );
    expect(row(item7, 'all', 'share 「视频」')).toMatchObject({ platform: null, verdict: 'fail' });
  });
});

test.describe('spec 1.5 / docs/contract.md §3: URLs as printed', () => {
  test('secret-looking query values are masked and userinfo dropped; the rest is kept', () => {
    expect(redactUrl('https://u:p@h/r/monitor/2026-01-01?companyId=1&token=abc123&Sign=x&topic=T')).toBe(
      'https://h/r/monitor/2026-01-01?companyId=1&token=***&Sign=***&topic=T',
    );
    expect(redactUrl('not a url')).toBe('not a url');
  });

  test('a pre-signed report URL: every credential-bearing parameter is masked, the report’s own parameters kept', () => {
    const signed = [
      'X-Amz-Security-Token=FQoGZXIvYXdzEXAMPLE',
      'X-Amz-Signature=abcdef0123456789',
      'X-Amz-Credential=AKIAEXAMPLE%2F20261126',
      'X-Goog-Signature=0a1b2c3d',
      'security-token=CAIS8wF1q6Ft5B2yfSjIr5',
      'OSSAccessKeyId=LTAIEXAMPLE',
      'Signature=q0rX8exampleXYZ',
      'sig=Azure%2Bsig%3D',
      'auth_key=1700000000-0-0-abcdef',
      'refreshToken=r3fr3sh',
    ];
    const url = `https://cdn.example.com/r/monitor/2026-11-26?companyId=1001&topic=T&${signed.join('&')}&X-Amz-Expires=300`;
    const shown = redactUrl(url);
    for (const p of signed) expect(shown).toContain(`${p.split('=')[0]}=***`);
    expect(shown).toContain('companyId=1001&topic=T');
    expect(shown).toContain('X-Amz-Expires=300');
    expect(redactText(`net::ERR_ABORTED at ${url}`)).not.toMatch(/EXAMPLE|q0rX8|Azure|r3fr3sh|abcdef0123/);
  });
});

test('every name the redaction guard looks for is one the URLs it reads were masked by: no secret the guard finds was printed unmasked by the suite', () => {
  for (const name of KNOWN_SECRET_PARAM_NAMES.split('|'))
    expect(redactUrl(`https://h.test/r?${name}=abcdef123&topic=T`), name).toBe(
      `https://h.test/r?${name}=***&topic=T`,
    );
});

test.describe('docs/contract.md §4: a list that does not validate is described by its first entries, never held whole', () => {
  test('40 MB of `{}` rows: three described, the rest not looked at; memory and time stay small', () => {
    const rows = Array.from({ length: 2_000_000 }, () => ({}));
    const started = process.memoryUsage().heapUsed;
    let message = '';
    let grownMb = 0;
    try {
      parseWith(metricsTables.snapshot, { rows }, 'GET snapshot', 'payload');
    } catch (e) {
      message = (e as Error).message;
      grownMb = (process.memoryUsage().heapUsed - started) / 2 ** 20; // before the issues can be collected
    }
    expect(grownMb).toBeLessThan(200);
    expect(message).toContain('payload.rows[0].platform');
    expect(message).toContain('payload.rows[3]: not validated from here on (2000000 entries in all)');
    expect(message.length).toBeLessThan(2_000);
  });

  test('near miss: a valid list is kept whole, in order, and a single bad entry among many valid ones is named', () => {
    const row = (platform: string) => ({ platform, exposure_rate: '1%' });
    const rows = [row('all'), row('kimi'), row('doubao')];
    const parsed = parseWith(metricsTables.snapshot, { rows }, 'GET snapshot', 'payload');
    expect(parsed.rows.map((r) => r.platform)).toEqual(['all', 'kimi', 'doubao']);
    expect(() =>
      parseWith(
        metricsTables.snapshot,
        { rows: [...rows, { platform: 'qwen', exposure_rate: 'n/a' }] },
        'GET snapshot',
        'payload',
      ),
    ).toThrow('payload.rows[3].exposure_rate: not a rate: "n/a"');
  });
});

test('docs/contract.md §4.1: a batch date with a time part or as YYYYMMDD still names its day', () => {
  const run = {
    projectId: 'P1',
    batchDate: '2026-11-20',
    reportType: 'monitor' as const,
    profile: 'A' as const,
    timeZone: 'Asia/Shanghai',
  };
  const withTime = [
    { batchDate: '2026-11-20 00:00:00', project: 'P1', l1CrawlBatchIds: [{ batchId: 'b1' }] },
  ];
  const compact = [{ batchDate: '20261120', project: 'P1', l1CrawlBatchIds: [{ batchId: 'b2' }] }];
  expect(resolveBatch(withTime, run)).toMatchObject({ kind: 'found', batchIds: ['b1'] });
  expect(resolveBatch(compact, run)).toMatchObject({ kind: 'found', batchIds: ['b2'] });
  expect(resolveBatch([{ ...compact[0]!, batchDate: '20261121' }], run).kind).toBe('error');
});

test.describe('docs/rules.md / docs/contract.md §5: a field a run does not use never fails it', () => {
  const withProduct = (productRanking: unknown) => ({ ...baseData(), product_ranking: productRanking });

  test('9.5.1: a brand-level run accepts product_ranking and core_product_competitors of any shape', () => {
    for (const shape of [
      [{ name: 'x', exposure_rate: 1 }],
      { kimi: [] },
      42,
      'text',
      { a: { b: 1 } },
      null,
    ]) {
      const raw = { ...withProduct(shape), core_product_competitors: { not: 'a list' } };
      expect(() => parseWith(dataSchema, raw, 'report page DATA', 'DATA')).not.toThrow();
      expect(() => parseWith(dataSchemaFor('brand'), raw, 'report page DATA', 'DATA')).not.toThrow();
    }
  });

  test('docs/contract.md §5: a product-level run accepts a list (aggregate) or an object keyed by platform, and says which', () => {
    const list = parseWith(
      dataSchemaFor('product'),
      withProduct([{ name: '纯牛奶', exposure_rate: '40%' }]),
      's',
      'DATA',
    );
    expect(list.product?.ranking?.form).toBe('aggregate');
    const keyed = parseWith(
      dataSchemaFor('product'),
      withProduct({ kimi: [{ name: '纯牛奶', exposure_rate: 40 }] }),
      's',
      'DATA',
    );
    expect(keyed.product?.ranking?.form).toBe('per-platform');
    expect(keyed.product?.ranking).toEqual({
      form: 'per-platform',
      byPlatform: { kimi: [{ name: '纯牛奶', exposure_rate: 40 }] },
    });
  });

  test('docs/contract.md §5: a product-level run rejects a product_ranking of neither form, naming DATA.product_ranking', () => {
    expect(() => parseWith(dataSchemaFor('product'), withProduct(42), 'report page DATA', 'DATA')).toThrow(
      /DATA\.product_ranking: expected a list \(aggregate\) or an object keyed by platform/,
    );
    expect(() =>
      parseWith(dataSchemaFor('product'), withProduct({ kimi: [{ name: 1 }] }), 'report page DATA', 'DATA'),
    ).toThrow(/DATA\.product_ranking\.kimi\[0\]\.name/);
    expect(() =>
      parseWith(
        dataSchemaFor('product'),
        withProduct([{ name: 'x', exposure_rate: 'n/a' }]),
        'report page DATA',
        'DATA',
      ),
    ).toThrow('DATA.product_ranking[0].exposure_rate: not a rate: "n/a"');
  });

  test('docs/contract.md §4.2 / 5: fields no check reads are accepted in any shape; extra fields are ignored', () => {
    const data = baseData() as unknown as Record<string, unknown> & ReturnType<typeof baseData>;
    const raw = structuredClone(data) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    raw.meta.mode = 7;
    raw.meta.report_type = { x: 1 };
    raw.meta.platforms[0].short_name = 12;
    raw.meta.extra = [1];
    raw.brand.wordcloud.words[0].weight = 'heavy';
    raw.brand.source_top30[0].url = 5;
    expect(() => parseWith(dataSchema, raw, 'DATA', 'DATA')).not.toThrow();
    const rows = {
      rows: [
        {
          platform: 'all',
          exposure_rate: '23.4%',
          position_rate: { shown: 'top3' },
          crawlBatchId: 7,
          extra: 1,
        },
      ],
    };
    const snapshot = parseWith(metricsTables.snapshot, rows, 'GET snapshot', 'payload');
    expect(snapshot.rows[0]).toMatchObject({ exposure_rate: 23.4, position_rate: null, crawlBatchId: '7' });
    const source = { rows: [{ title: 't', channel: 'c', cite_count: 3, rank: 'top', url: { href: 1 } }] };
    expect(parseWith(metricsTables.source, source, 'GET source', 'payload').rows[0]).toMatchObject({
      rank: null,
    });
    const competitor = {
      rows: [
        {
          kind: 'brand',
          name: 'a',
          rank: '1',
          exposure_rate: '1.5',
          platform_rates: [{ name: 3, rate: '-' }],
        },
      ],
    };
    expect(
      parseWith(metricsTables.competitor, competitor, 'GET competitor', 'payload').rows[0],
    ).toMatchObject({
      exposure_rate: 1.5,
      platform_rates: [{ name: '3', rate: null }],
    });
  });

  test('9.3.4: the snapshot keeps the printed form of brand_exposure_rate beside the number', () => {
    const rows = {
      rows: [
        { platform: 'all', brand_exposure_rate: '36.0' },
        { platform: 'kimi', brand_exposure_rate: 36 },
        { platform: 'qwen', brand_exposure_rate: '-' },
      ],
    };
    const parsed = parseWith(metricsTables.snapshot, rows, 'GET snapshot', 'payload').rows;
    expect(parsed.map((r) => [r.brand_exposure_rate, r.brand_exposure_rate_printed])).toEqual([
      [36, '36.0'],
      [36, '36'],
      [null, undefined],
    ]);
  });
});

test.describe('README.md § Security and limits: duplicates, non-finite numbers, Object property names as keys', () => {
  test('case 9: duplicate meta.platforms keys are an error naming the key', () => {
    const raw = baseData();
    raw.meta.platforms[1] = { key: 'doubao', name: '豆包2' };
    expect(() => parseWith(dataSchema, raw, 'report page DATA', 'DATA')).toThrow(
      /DATA\.meta\.platforms\[1\]\.key: duplicate platform key doubao \(also at \[0\]\)/,
    );
  });

  test('case 9: two snapshot rows for one platform, duplicate tmc and competitor keys are errors naming the key', () => {
    const snapshot = {
      rows: [{ platform: 'kimi' }, { platform: 'all' }, { platform: 'kimi', exposure_rate: 1 }],
    };
    // The platforms a run reads (`all` and the six AI platforms) are known with its report: the
    // collection checks them (collect.spec.ts, docs/contract.md §5).
    const read = new Set(['all', 'kimi']);
    const snapshotRows = parseWith(metricsTables.snapshot, snapshot, 'GET snapshot', 'payload').rows;
    expect(readDuplicates('snapshot', snapshotRows, read)).toEqual([
      {
        path: [2, 'platform'],
        message:
          'duplicate snapshot row for platform "kimi" (also at [0]): one would silently win over the other',
      },
    ]);
    expect(readDuplicates('snapshot', snapshotRows, new Set(['all']))).toEqual([]);
    const tmcRow = { platform: 'all', dimension: 'content_type', name: '图文', value: 1 };
    const tmcRows = parseWith(
      metricsTables.tmc,
      { rows: [tmcRow, { ...tmcRow, platform: 'kimi' }, tmcRow] },
      'GET tmc',
      'payload',
    ).rows;
    expect(readDuplicates('tmc', tmcRows, read).map((d) => [d.path, d.message])).toEqual([
      [
        [2, 'name'],
        expect.stringContaining('duplicate tmc row (platform "all", dimension content_type, name "图文")'),
      ],
    ]);
    const c = { kind: 'brand', name: 'a', rank: 1, exposure_rate: 1, platform_rates: [] };
    expect(() =>
      parseWith(
        metricsTables.competitor,
        { rows: [c, { ...c, kind: 'product' }, c] },
        'GET competitor',
        'payload',
      ),
    ).toThrow(/rows\[2\]\.name: duplicate competitor row "a" \(kind brand\)/);
    const raw = baseData();
    raw.brand.tmc_aggregate.content_type = [
      { name: '图文', value: 1 },
      { name: '图文', value: 2 },
    ];
    expect(() => parseWith(dataSchema, raw, 'DATA', 'DATA')).toThrow(
      /tmc_aggregate\.content_type\[1\]\.name: duplicate name 图文/,
    );
  });

  test('spec 7.3.2, 7.4, 7.5 on the HTML side: a DATA group listing 「其他」「未知」 (media type and name) or 「无时间」 (publish time) twice is no duplicate error, as the tmc rows are not (review 59j: it made the run an error of all ten items); near miss: a name the chart reads, 「其他」 of content type or of publish time, is still one value', () => {
    const twice = (name: string) => [
      { name, value: 3 },
      { name, value: 4 },
      { name: `${name} `, value: 5 },
    ];
    const raw = baseData();
    const key = Object.keys(raw.brand.platforms)[0]!;
    raw.brand.tmc_aggregate.media_category = [...raw.brand.tmc_aggregate.media_category, ...twice('其他')];
    raw.brand.tmc_aggregate.media_name = twice('未知');
    raw.brand.tmc_aggregate.publish_time = twice('无时间');
    raw.brand.platforms[key]!.citation.media_category = twice('未知');
    raw.brand.platforms[key]!.citation.media_name = twice('其他');
    raw.brand.platforms[key]!.citation.publish_time = twice('无时间');
    expect(() => parseWith(dataSchema, raw, 'DATA', 'DATA')).not.toThrow();
    for (const field of ['content_type', 'publish_time'] as const) {
      const near = baseData();
      near.brand.tmc_aggregate[field] = [
        { name: '其他', value: 3 },
        { name: '其他', value: 4 },
      ];
      expect(() => parseWith(dataSchema, near, 'DATA', 'DATA'), field).toThrow(
        new RegExp(`tmc_aggregate\\.${field}\\[1\\]\\.name: duplicate name 其他`),
      );
    }
  });

  test('spec 7.3.2, 7.4, 7.5: 「无时间」 of publish time and 「其他」「未知」 of media type and name are removed before a chart is read, so repeated tmc rows of theirs fail no run and change no verdict', () => {
    const extra = [
      ...repeatedTmc('all', 'publish_time', '无时间'),
      ...repeatedTmc('all', 'media_category', '其他'),
      ...repeatedTmc('kimi', 'media_category', '未知'),
      ...repeatedTmc('all', 'media_name', '其他'),
    ];
    const base = basePlatform().tmc;
    const parsed = parseWith(metricsTables.tmc, { rows: [...base, ...extra] }, 'GET tmc', 'payload');
    expect(parsed.rows).toHaveLength(base.length + extra.length);
    const read = new Set(['all', 'kimi']);
    expect(readDuplicates('tmc', parsed.rows, read)).toEqual([]);
    for (const profile of ['A', 'B'] as const) {
      const clean = context({ profile });
      const withRepeats = context({ profile, edit: (_d, p) => (p.tmc = parsed.rows) });
      expect(([7, 8, 9, 10] as const).map((n) => ITEM_RULES[n](withRepeats).verdict)).toEqual(
        ([7, 8, 9, 10] as const).map((n) => ITEM_RULES[n](clean).verdict),
      );
    }
    // A name a chart reads is still one value: 「其他」 of content type, 「无时间」 of media name.
    for (const [dimension, name] of [
      ['content_type', '其他'],
      ['media_name', '无时间'],
    ] as const)
      expect(
        readDuplicates(
          'tmc',
          parseWith(metricsTables.tmc, { rows: repeatedTmc('all', dimension, name) }, 'GET tmc', 'payload')
            .rows,
          read,
        ).map((d) => d.path),
      ).toEqual([[1, 'name']]);
  });

  test('spec 7.4, 7.3.2 with docs/rules.md 7.4 (isRemovedName): repeated tmc rows of 「其他 」 or 「无时间」 printed with whitespace around the name are removed rows too, no duplicate error', () => {
    const extra = [
      ...repeatedTmc('all', 'media_category', '其他 '),
      ...repeatedTmc('all', 'media_name', '\u3000未知'),
      ...repeatedTmc('all', 'publish_time', ' 无时间 '),
    ];
    const base = basePlatform().tmc;
    const parsed = parseWith(metricsTables.tmc, { rows: [...base, ...extra] }, 'GET tmc', 'payload');
    expect(parsed.rows).toHaveLength(base.length + extra.length);
    // Duplicates are looked for among the rows a run reads (readDuplicates, review 59j).
    const read = new Set(['all']);
    expect(readDuplicates('tmc', parsed.rows, read)).toEqual([]);
    // Another name a chart reads stays one value, whitespace or not: 「其他渠道 」 of media type.
    const other = parseWith(
      metricsTables.tmc,
      { rows: repeatedTmc('all', 'media_category', '其他渠道 ') },
      'GET tmc',
      'payload',
    );
    expect(readDuplicates('tmc', other.rows, read).map((d) => d.path)).toEqual([[1, 'name']]);
  });

  test('case 10: NaN and Infinity read from the page are "not a rate"; null, "", "-" and a missing key stay "no value"', () => {
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      const raw = baseData();
      raw.brand.summary.avg_exposure_rate = bad;
      expect(() => parseWith(dataSchema, raw, 'DATA', 'DATA')).toThrow(
        /DATA\.brand\.summary\.avg_exposure_rate: not a rate: (NaN|-?Infinity)/,
      );
    }
    const counts = baseData();
    counts.brand.source_top30[0]!.cite_count = Number.NaN;
    expect(() => parseWith(dataSchema, counts, 'DATA', 'DATA')).toThrow(/source_top30\[0\]\.cite_count/);
    const rows = { rows: [{ platform: 'all', exposure_rate: null, top3_rate: '', positive_rate: '-' }] };
    expect(parseWith(metricsTables.snapshot, rows, 'GET snapshot', 'payload').rows[0]).toMatchObject({
      exposure_rate: null,
      top3_rate: null,
      positive_rate: null,
      top5_rate: null,
    });
  });

  test('case 11: __proto__, constructor and prototype as platform keys are errors naming the source and the key, never a crash', () => {
    for (const key of ['__proto__', 'constructor', 'prototype']) {
      const platforms = JSON.parse(`{"${key}": {}}`) as Record<string, unknown>;
      const raw = { ...baseData(), brand: { ...baseData().brand, platforms } };
      expect(() => parseWith(dataSchema, raw, 'report page DATA', 'DATA')).toThrow(
        new RegExp(
          `report page DATA does not match the contract: DATA\\.brand\\.platforms\\.${key}: platform key "${key}" is not allowed`,
        ),
      );
      const meta = baseData();
      meta.meta.platforms[0]!.key = key;
      expect(() => parseWith(dataSchema, meta, 'DATA', 'DATA')).toThrow(
        /DATA\.meta\.platforms\[0\]\.key: platform key/,
      );
      expect(() =>
        parseWith(metricsTables.snapshot, { rows: [{ platform: key }] }, 'GET snapshot', 'payload'),
      ).toThrow(/payload\.rows\[0\]\.platform/);
      const product = { ...baseData(), product_ranking: JSON.parse(`{"${key}": []}`) };
      expect(() => parseWith(dataSchemaFor('product'), product, 'DATA', 'DATA')).toThrow(
        /DATA\.product_ranking\.\S+: platform key/,
      );
    }
  });

  test('case 11: rules read keyed records by own property: a context naming "constructor" fails, never crashes', () => {
    for (const check of Object.values(ITEM_RULES)) {
      const ctx = context({ edit: (d) => (d.meta.platforms[5] = { key: 'constructor', name: 'C' }) });
      expect(() => check(ctx)).not.toThrow();
    }
  });
});

test.describe('mutation sweep of lib/schema (2026-11-28): encodings the contract permits, values a check reads', () => {
  test('docs/contract.md §4.2 "a row field no check reads is accepted in any shape": a source row without rank and a competitor column without name parse', () => {
    const source = { rows: [{ title: 't', channel: 'c', cite_count: 3 }] };
    expect(parseWith(metricsTables.source, source, 'GET source', 'payload').rows[0]).toMatchObject({
      cite_count: 3,
      rank: null,
    });
    const competitor = {
      rows: [{ kind: 'brand', name: 'a', rank: 1, exposure_rate: 2, platform_rates: [{ rate: '3%' }] }],
    };
    expect(
      parseWith(metricsTables.competitor, competitor, 'GET competitor', 'payload').rows[0],
    ).toMatchObject({ platform_rates: [{ name: '', rate: 3 }] });
  });

  test('contract 4.2 / 5 "cite_count": integer: a cited count of 2.5 is an error naming the field, on the platform side and in DATA', () => {
    const source = { rows: [{ title: 't', channel: 'c', cite_count: 2.5, rank: 1 }] };
    expect(() => parseWith(metricsTables.source, source, 'GET source', 'payload')).toThrow(
      /payload\.rows\[0\]\.cite_count/,
    );
    const raw = looseData();
    raw.brand.source_top30[0].cite_count = 2.5;
    expect(() => parseWith(dataSchema, raw, 'report page DATA', 'DATA')).toThrow(
      /DATA\.brand\.source_top30\[0\]\.cite_count/,
    );
  });

  test('docs/contract.md §5 "null is absent" for product_ranking?: a product-level run reads a null product_ranking as the absent one, no error', () => {
    const absent = parseWith(dataSchemaFor('product'), baseData(), 's', 'DATA');
    const nulled = parseWith(dataSchemaFor('product'), { ...baseData(), product_ranking: null }, 's', 'DATA');
    expect(nulled.product?.ranking).toBeUndefined();
    expect(nulled.product).toEqual(absent.product);
  });
});

test.describe('mutation sweep of lib/schema (2026-11-28): what a schema error shows', () => {
  test('a schema error shows the first three issues and counts the rest (as README § Security and limits describes a list by "its first three bad entries"); with three or fewer it says no "more"', () => {
    const five = new SchemaError('GET source', ['a: 1', 'b: 2', 'c: 3', 'd: 4', 'e: 5']);
    expect(five.message).toBe('GET source does not match the contract: a: 1; b: 2; c: 3; and 2 more');
    const three = new SchemaError('GET source', ['a: 1', 'b: 2', 'c: 3']);
    expect(three.message).toBe('GET source does not match the contract: a: 1; b: 2; c: 3');
  });
});
