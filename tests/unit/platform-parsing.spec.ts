import { expect, test } from '@playwright/test';
import { unwrapEnvelope } from '../../lib/platform/envelope';
import { builtDiagnosisBatchId, confirmBuiltBatch, resolveBatch } from '../../lib/platform/batches';
import { parseRate } from '../../lib/schema/rate';
import { metricsTables } from '../../lib/schema/platform';
import { parseWith } from '../../lib/schema/issues';
import { redactUrl } from '../../lib/report/redact';

test.describe('contract 4: envelope', () => {
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

test.describe('contract 4.2 / 5: rates', () => {
  test('numbers and numeric strings, with an optional trailing %', () => {
    expect(parseRate(23.4)).toBe(23.4);
    expect(parseRate('23.4')).toBe(23.4);
    expect(parseRate('23.4%')).toBe(23.4);
    expect(parseRate(' 7 % ')).toBe(7);
    expect(parseRate('0')).toBe(0);
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

test.describe('contract 4.1 / spec 9.1: batch resolution', () => {
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
  };

  test('the item with the run batchDate and project is chosen; its ids in order', () => {
    expect(resolveBatch(items, run)).toMatchObject({ kind: 'found', batchIds: ['b1', 'b2'] });
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

  test('9.1.3: the rows’ crawlBatchId is authoritative', () => {
    const rows = [{ platform: 'all', crawlBatchId: 'XH-SX-HIST-P1-20261120-D' }] as never[];
    expect(confirmBuiltBatch('XH-HIST-P1-20261120-D', rows)).toMatchObject({
      kind: 'found',
      batchIds: ['XH-SX-HIST-P1-20261120-D'],
    });
  });

  test('8.1.1 / 9.1.2: empty rows for the built id → stop and ask (needs-input), no other prefix', () => {
    const r = confirmBuiltBatch('XH-HIST-P1-20261120-D', []);
    expect(r.kind).toBe('needs-input');
    expect(r.kind === 'needs-input' && r.reason).toContain('no other prefix is tried');
  });
});

test.describe('spec 1.5 / contract 3: URLs as printed', () => {
  test('secret-looking query values are masked and userinfo dropped; the rest is kept', () => {
    expect(redactUrl('https://u:p@h/r/monitor/2026-01-01?companyId=1&token=abc123&Sign=x&topic=T')).toBe(
      'https://h/r/monitor/2026-01-01?companyId=1&token=***&Sign=***&topic=T',
    );
    expect(redactUrl('not a url')).toBe('not a url');
  });
});

test('contract 4.1: a batch date with a time part or as YYYYMMDD still names its day', () => {
  const run = {
    projectId: 'P1',
    batchDate: '2026-11-20',
    reportType: 'monitor' as const,
    profile: 'A' as const,
  };
  const withTime = [
    { batchDate: '2026-11-20 00:00:00', project: 'P1', l1CrawlBatchIds: [{ batchId: 'b1' }] },
  ];
  const compact = [{ batchDate: '20261120', project: 'P1', l1CrawlBatchIds: [{ batchId: 'b2' }] }];
  expect(resolveBatch(withTime, run)).toMatchObject({ kind: 'found', batchIds: ['b1'] });
  expect(resolveBatch(compact, run)).toMatchObject({ kind: 'found', batchIds: ['b2'] });
  expect(resolveBatch([{ ...compact[0]!, batchDate: '20261121' }], run).kind).toBe('error');
});
