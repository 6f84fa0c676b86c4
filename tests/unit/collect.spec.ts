import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from './test-type';
import { judge } from '../../lib/report/judged';
import { REASON_MAX } from '../../lib/report/night';
import { safeText } from '../../lib/report/text';
import { failingSteps } from './builders';
import { BROWSER_NOT_STARTED, collectRun, trustedLoginOrigin } from '../../lib/platform/collect';
import type { Evidence } from '../../lib/platform/evidence';
import { LoginError } from '../../lib/platform/login';
import { CredentialsError } from '../../lib/run/credentials';
import { A_MONITOR, B_DIAGNOSIS, B_MONITOR } from '../../demo/runs';
import { SessionExpired } from '../../pages/ReportPage';
import {
  batchItem,
  batchKey,
  configuredRun,
  fakeDeps,
  metricsKey,
  ORIGIN,
  PORTAL_B_ORIGIN,
  PORTAL_B_HOST,
  platformFor,
  PROFILE_B,
  Reply,
  Sequence,
  viewsOf,
  wordcloudKey,
} from './fakes/platform';

/**
 * collectRun through its dependency seam (CollectDeps) with fakes: no server, no browser. The
 * answers come from the demo's dataset, so a run that meets no fault is checked.
 */

const A_IDS = A_MONITOR.spec.batchIds; // two ids, joined in the order of the batch list
const BUILT = 'XH-HIST-310001-20251110-D'; // spec 9.1.2 for B-diagnosis (brand code XH)

/** A-monitor: the batch list lists its two ids in reverse order, and an older batch of the project. */
function aMonitor() {
  const { data, view } = viewsOf(A_MONITOR);
  const ids = [...A_IDS].reverse();
  const platform = platformFor(A_MONITOR, view, ids, [
    batchItem(A_MONITOR, ['L1M-101101-20251110-H'], '2025-11-10'),
    batchItem(A_MONITOR, ids),
  ]);
  return { data, view, ids, platform };
}

/** B-diagnosis: an empty batch list; the snapshot of the built id answers `snapshotRows`. */
function bDiagnosis(authoritative?: string) {
  const { data, view } = viewsOf(B_DIAGNOSIS);
  const ids = [authoritative ?? BUILT];
  const platform = platformFor(B_DIAGNOSIS, view, ids, []);
  const rows = view.snapshot.map((r) => ({ ...r, crawlBatchId: ids[0] }));
  platform.set(metricsKey(B_DIAGNOSIS, 'snapshot', [BUILT]), { rows });
  if (authoritative) platform.set(metricsKey(B_DIAGNOSIS, 'snapshot', ids), { rows });
  return { data, view, platform };
}

/** The run facts read from the URLs, known whatever failed afterwards (docs/rules.md). */
function facts(project = A_MONITOR, profile: 'A' | 'B' = project.spec.profile) {
  const { companyId, projectId, reportType, batchDate } = project.spec;
  return { companyId, projectId, reportType, batchDate, profile };
}

/** What a run not checked must show: its status and kind, no evidence kept, a reason saying `says`. */
function outcome(evidence: Evidence, ...says: string[]) {
  const reason = evidence.reason ?? '';
  return {
    status: evidence.status,
    failureKind: evidence.failureKind,
    kept: evidence.parsed !== undefined,
    lacks: says.filter((s) => !reason.includes(s)).map((s) => `${JSON.stringify(s)} in: ${reason}`),
  };
}
const failed = (failureKind: 'input' | 'platform' | 'configuration') => ({
  status: 'error',
  failureKind,
  kept: false,
  lacks: [],
});

/** A-monitor (its run's batch date 2025-11-17) whose DATA says `meta.batch_date`. */
function batchDated(batchDate: unknown) {
  const { data, platform } = aMonitor();
  const meta = { ...(data.meta as Record<string, unknown>), batch_date: batchDate };
  return { platform, deps: fakeDeps(platform, { ...data, meta }).deps };
}

/** Each `meta.batch_date` names another day (shown with `inZone`): an input error naming both. */
async function expectAnotherDay(stale: readonly unknown[], inZone = ''): Promise<void> {
  for (const value of stale) {
    const evidence = await collectRun(configuredRun(A_MONITOR), batchDated(value).deps);
    const says = `DATA.meta.batch_date is ${JSON.stringify(value)}${inZone}, another day than the run's batch date 2025-11-17`;
    expect(outcome(evidence, says), String(value)).toEqual(failed('input'));
  }
}

/** Each `meta.batch_date` names the run's day: checked, and (`noNote`) nothing said of it. */
async function expectRunDay(near: readonly unknown[], noNote = true): Promise<void> {
  for (const value of near) {
    const checked = await collectRun(configuredRun(A_MONITOR), batchDated(value).deps);
    expect(checked.status, `${JSON.stringify(value)}: ${checked.reason}`).toBe('checked');
    if (noNote) expect(checked.notes.join(' '), String(value)).not.toContain('meta.batch_date');
  }
}

/**
 * A-monitor whose snapshot rows name these crawlBatchIds in turn (a missing, null or empty one
 * names no batch): the ids the run asks for, and the deps of a platform answering so.
 */
function snapshotNaming(crawlBatchIds: unknown[]) {
  const { data, view, ids, platform } = aMonitor();
  const rows = view.snapshot.map((r, i) => ({ ...r, crawlBatchId: crawlBatchIds[i % crawlBatchIds.length] }));
  platform.set(metricsKey(A_MONITOR, 'snapshot', ids), { rows });
  return { ids, deps: fakeDeps(platform, data).deps };
}

test.describe('collectRun: batch ids (docs/contract.md §4.1, spec 9.1.2 / 9.1.3)', () => {
  test('the batch list item of the run date and project: its ids joined in their order, every table with them', async () => {
    const { data, ids, platform } = aMonitor();
    const fakes = fakeDeps(platform, data);
    const evidence = await collectRun(configuredRun(A_MONITOR), fakes.deps);
    expect(evidence.status, evidence.reason).toBe('checked');
    expect(evidence.run.batchIds).toEqual(ids);
    expect(evidence.run).toMatchObject(facts());
    expect(evidence.run.dataSource).toBe('html');
    const metrics = platform.callsTo('/metrics/l1');
    expect(metrics.length).toBeGreaterThan(4);
    for (const call of metrics) expect(call).toContain(`batchIds=${encodeURIComponent(ids.join(','))}&`);
    expect(platform.calls).toContain(wordcloudKey(A_MONITOR, ids[0]!));
    expect(platform.callsTo('table=snapshot')).toHaveLength(1);
    expect(evidence.pageLoads).toBe(1);
    expect(evidence.requests.every((r) => r.status === 200 && r.attempts === 1)).toBe(true);
    expect(evidence.requests).toHaveLength(platform.calls.length);
    expect(fakes.sessions).toEqual([
      { loginBase: ORIGIN, key: 'company:1001', force: false },
      { loginBase: ORIGIN, key: 'company:1001', force: false },
    ]);
    expect(platform.disposed).toBe(platform.opened);
    expect(evidence.notes).toContain('profile A: no Profile B rule matched (spec 9.1.1)');
  });

  test('9.1.2: Profile B diagnosis with an empty batch list builds the id; the snapshot rows confirm it, fetched once', async () => {
    const { data, platform } = bDiagnosis();
    const evidence = await collectRun(configuredRun(B_DIAGNOSIS), fakeDeps(platform, data).deps);
    expect(evidence.status, evidence.reason).toBe('checked');
    expect(evidence.run.batchIds).toEqual([BUILT]);
    expect(platform.callsTo('table=snapshot')).toHaveLength(1);
    expect(evidence.notes.join('\n')).toContain(`built ${BUILT} (spec 9.1.2)`);
    expect(evidence.run).toMatchObject(facts(B_DIAGNOSIS, 'B'));
  });

  test('9.1.3: the crawlBatchId of the rows is authoritative: every table is fetched with it', async () => {
    const authoritative = 'XH-SX-HIST-310001-20251110-D';
    const { data, platform } = bDiagnosis(authoritative);
    const evidence = await collectRun(configuredRun(B_DIAGNOSIS), fakeDeps(platform, data).deps);
    expect(evidence.status, evidence.reason).toBe('checked');
    expect(evidence.run.batchIds).toEqual([authoritative]);
    expect(platform.callsTo('table=snapshot')).toEqual([
      metricsKey(B_DIAGNOSIS, 'snapshot', [BUILT]),
      metricsKey(B_DIAGNOSIS, 'snapshot', [authoritative]),
    ]);
    for (const table of ['competitor', 'tmc', 'source'])
      for (const call of platform.callsTo(`table=${table}`))
        expect(call).toContain(`batchIds=${authoritative}&`);
    expect(evidence.notes.join('\n')).toContain(
      `authoritative crawlBatchId from the snapshot: ${authoritative}`,
    );
  });

  test('9.1.2 without the brand code is a configuration error naming the setting, never the platform', async () => {
    const { data, platform } = bDiagnosis();
    const fakes = fakeDeps(platform, data);
    const { brandCode: _none, ...withoutCode } = fakes.deps.profileB;
    const evidence = await collectRun(configuredRun(B_DIAGNOSIS), { ...fakes.deps, profileB: withoutCode });
    expect(outcome(evidence, 'L1_PROFILE_B_BRAND_CODE or profileB.brandCode')).toEqual(
      failed('configuration'),
    );
    expect(platform.callsTo('table=snapshot')).toEqual([]);
  });

  test('9.1.2: no snapshot rows for the built id → needs-input naming the id; no other table is asked', async () => {
    const { data, platform } = bDiagnosis();
    platform.set(metricsKey(B_DIAGNOSIS, 'snapshot', [BUILT]), { rows: [] });
    const evidence = await collectRun(configuredRun(B_DIAGNOSIS), fakeDeps(platform, data).deps);
    expect(outcome(evidence, BUILT, 'set batchId on the run')).toEqual({
      status: 'needs-input',
      failureKind: 'needs-input',
      kept: false,
      lacks: [],
    });
    expect(platform.callsTo('table=competitor')).toEqual([]);
    expect(evidence.run).toMatchObject(facts(B_DIAGNOSIS, 'B'));
    expect(evidence.run.batchIds).toEqual([]);
  });

  test('Profile A with no batch of the run date is a platform error naming date and project', async () => {
    const { data, platform } = aMonitor();
    platform.set(batchKey(A_MONITOR), [batchItem(A_MONITOR, ['x'], '2025-11-10')]);
    const evidence = await collectRun(configuredRun(A_MONITOR), fakeDeps(platform, data).deps);
    expect(outcome(evidence, 'no batch for batchDate 2025-11-17 and project 101101')).toEqual(
      failed('platform'),
    );
    expect(evidence.run).toMatchObject(facts());
  });

  test('contract §4.2 / spec 9.1.3: snapshot rows whose crawlBatchId names a batch other than the ones asked for are another batch\'s answer (a platform that ignores unknown ids and sends its latest): a platform error naming the endpoint, the ids asked for and those answered, nothing judged (it was checked and passed every item: foolproof audit of 2026-11-28); near miss: rows naming one of the ids asked for, or none (missing, null, ""), are checked', async () => {
    const latest = snapshotNaming(['L1M-999999-20251103-H']);
    const evidence = await collectRun(configuredRun(A_MONITOR), latest.deps);
    expect(
      outcome(
        evidence,
        'GET /api/geo-monitor/metrics/l1 (table=snapshot)',
        `crawlBatchId L1M-999999-20251103-H, not among the batch ids asked for (${latest.ids.join(',')}`,
      ),
    ).toEqual(failed('platform'));
    expect(evidence.run.batchIds).toEqual(latest.ids);
    expect(Object.values(judge(evidence).items).map((i) => i!.verdict)).not.toContain('pass');
    // One row of another batch among the run's: still another batch's answer.
    const mixed = await collectRun(
      configuredRun(A_MONITOR),
      snapshotNaming([A_IDS[0], 'L1M-101101-20251110-H']).deps,
    );
    expect(
      outcome(
        mixed,
        'the rows name crawlBatchId L1M-101101-20251110-H,',
        `the rows name ${A_IDS[0]},L1M-101101-20251110-H)`,
      ),
    ).toEqual(failed('platform'));
    for (const near of [[A_IDS[1]], [...A_IDS], [undefined], [null], [''], [A_IDS[0], null]]) {
      const checked = await collectRun(configuredRun(A_MONITOR), snapshotNaming(near).deps);
      expect(checked.status, `${JSON.stringify(near)}: ${checked.reason}`).toBe('checked');
    }
  });

  test('contract §4.1 / §4.2: the ids asked for go as one comma-joined batchIds, so rows whose crawlBatchId names them joined (an aggregate row of a two-id batch echoing the parameter) or a run batchId of several comma-joined ids name no other batch and are checked; near miss: a joined id with one part of another batch is an error', async () => {
    const joined = snapshotNaming([[...A_IDS].reverse().join(','), A_IDS[0], A_IDS[1]]);
    const evidence = await collectRun(configuredRun(A_MONITOR), joined.deps);
    expect(evidence.status, evidence.reason).toBe('checked');
    const spaced = await collectRun(
      configuredRun(A_MONITOR),
      snapshotNaming([`${A_IDS[1]}, ${A_IDS[0]}`]).deps,
    );
    expect(spaced.status, spaced.reason).toBe('checked');
    const other = await collectRun(
      configuredRun(A_MONITOR),
      snapshotNaming([`${A_IDS[0]},L1M-101101-20251110-H`]).deps,
    );
    expect(outcome(other, 'the rows name crawlBatchId', 'L1M-101101-20251110-H')).toEqual(failed('platform'));

    const { data, view } = viewsOf(A_MONITOR);
    const platform = platformFor(A_MONITOR, view, ['g1,g2'], []);
    const rows = view.snapshot.map((r, i) => ({ ...r, crawlBatchId: i % 2 ? 'g1' : 'g2' }));
    platform.set(metricsKey(A_MONITOR, 'snapshot', ['g1,g2']), { rows });
    const given = await collectRun(
      configuredRun(A_MONITOR, { batchId: 'g1,g2' }),
      fakeDeps(platform, data).deps,
    );
    expect(given.status, given.reason).toBe('checked');
  });

  test('snapshot rows of another batch among many ids asked for: the reason names a few ids of each side and counts the rest, so its explanation is within the 2,000 characters a reason keeps (README § Bounded outputs)', async () => {
    const { data, view } = viewsOf(A_MONITOR);
    const asked = Array.from({ length: 2000 }, (_, i) => `L1M-101101-20251117-${i}`);
    const platform = platformFor(A_MONITOR, view, asked, [batchItem(A_MONITOR, asked)]);
    const rows = view.snapshot.map((r, i) => ({ ...r, crawlBatchId: `L1M-999999-20251103-${i}` }));
    platform.set(metricsKey(A_MONITOR, 'snapshot', asked), { rows });
    const evidence = await collectRun(configuredRun(A_MONITOR), fakeDeps(platform, data).deps);
    expect(outcome(evidence, 'the platform answered another batch', 'and 1997 more id(s)')).toEqual(
      failed('platform'),
    );
    expect((evidence.reason ?? '').length).toBeLessThan(2000);
  });

  test('a batch id given by the run: snapshot rows naming another batch are an error as well; rows naming it are checked', async () => {
    const { data, view } = viewsOf(A_MONITOR);
    const given = (crawlBatchId: string) => {
      const platform = platformFor(A_MONITOR, view, ['given'], []);
      const rows = view.snapshot.map((r) => ({ ...r, crawlBatchId }));
      platform.set(metricsKey(A_MONITOR, 'snapshot', ['given']), { rows });
      return collectRun(configuredRun(A_MONITOR, { batchId: 'given' }), fakeDeps(platform, data).deps);
    };
    expect(
      outcome(await given(A_IDS[0]!), `crawlBatchId ${A_IDS[0]}, not among the batch ids asked for (given;`),
    ).toEqual(failed('platform'));
    const own = await given('given');
    expect(own.status, own.reason).toBe('checked');
  });

  test('9.1.3 in a Profile B diagnosis: a batch id given by the run (the advice of 9.1.2\'s "stop and ask") is confirmed as a built one is: rows naming another crawlBatchId make it authoritative, every table asked with it (review of 2026-11-28: a platform error); near miss: rows naming the given id are fetched once', async () => {
    const authoritative = 'XH-SX-HIST-310001-20251110-D';
    const { data, platform } = bDiagnosis(authoritative);
    const evidence = await collectRun(
      configuredRun(B_DIAGNOSIS, { batchId: BUILT }),
      fakeDeps(platform, data).deps,
    );
    expect(evidence.status, evidence.reason).toBe('checked');
    expect(evidence.run.batchIds).toEqual([authoritative]);
    for (const call of platform.callsTo('table=competitor'))
      expect(call).toContain(`batchIds=${authoritative}&`);
    expect(evidence.notes.join('\n')).toContain(
      `authoritative crawlBatchId from the snapshot: ${authoritative}`,
    );
    const own = bDiagnosis();
    const same = await collectRun(
      configuredRun(B_DIAGNOSIS, { batchId: BUILT }),
      fakeDeps(own.platform, own.data).deps,
    );
    expect(same.status, same.reason).toBe('checked');
    expect(same.run.batchIds).toEqual([BUILT]);
    expect(own.platform.callsTo('table=snapshot')).toHaveLength(1);
  });

  test('9.1.3 with a batch id given by a Profile B diagnosis run: snapshot rows naming the given id and another are a platform that mixed batches, and the run stops, never asking every table for both (review of dad9212)', async () => {
    const { data, view, platform } = bDiagnosis();
    const older = 'XH-HIST-310001-20251103-D';
    const rows = view.snapshot.map((r, i) => ({ ...r, crawlBatchId: i === 0 ? older : BUILT }));
    platform.set(metricsKey(B_DIAGNOSIS, 'snapshot', [BUILT]), { rows });
    const evidence = await collectRun(
      configuredRun(B_DIAGNOSIS, { batchId: BUILT }),
      fakeDeps(platform, data).deps,
    );
    expect(outcome(evidence, `crawlBatchId ${older}`, 'the platform answered another batch')).toEqual(
      failed('platform'),
    );
    expect(platform.calls.filter((call) => call.includes(older))).toEqual([]);
  });

  test('9.1.3 after a built diagnosis id (9.1.2): snapshot rows naming the built id and another are a platform that mixed batches, and the run stops, as for a given id, never asking every table (and the word cloud) for both (review 59e: both ids were asked, the older first)', async () => {
    const { data, view, platform } = bDiagnosis();
    const older = 'XH-HIST-310001-20251103-D';
    const rows = view.snapshot.map((r, i) => ({ ...r, crawlBatchId: i === 0 ? older : BUILT }));
    platform.set(metricsKey(B_DIAGNOSIS, 'snapshot', [BUILT]), { rows });
    const evidence = await collectRun(configuredRun(B_DIAGNOSIS), fakeDeps(platform, data).deps);
    expect(outcome(evidence, `crawlBatchId ${older}`, 'the platform answered another batch')).toEqual(
      failed('platform'),
    );
    expect(platform.calls.filter((call) => call.includes(older))).toEqual([]);
    expect(evidence.run.batchIds).toEqual([BUILT]);
  });

  test('docs/contract.md §4.1: two items of the run date and project with other ids: the first listed is used, and the run notes the other (foolproof audit of 2026-11-28)', async () => {
    const { data, ids, platform } = aMonitor();
    platform.set(batchKey(A_MONITOR), [
      batchItem(A_MONITOR, ids),
      batchItem(A_MONITOR, ['L1M-101101-20251117-R']),
    ]);
    const evidence = await collectRun(configuredRun(A_MONITOR), fakeDeps(platform, data).deps);
    expect(evidence.status, evidence.reason).toBe('checked');
    expect(evidence.run.batchIds).toEqual(ids);
    expect(evidence.notes).toContainEqual(
      expect.stringContaining(
        `left aside: payload[1] dated "${A_MONITOR.spec.batchDate}" with L1M-101101-20251117-R; ${ids.join(',')} was chosen`,
      ),
    );
  });

  test('a batch id given by the run skips the batch list', async () => {
    const { data, view } = viewsOf(A_MONITOR);
    const platform = platformFor(A_MONITOR, view, ['given'], []);
    const evidence = await collectRun(
      configuredRun(A_MONITOR, { batchId: 'given' }),
      fakeDeps(platform, data).deps,
    );
    expect(evidence.run.batchIds).toEqual(['given']);
    expect(platform.callsTo('/project/batch')).toEqual([]);
  });
});

test.describe('collectRun: empty tables (docs/contract.md §4.2)', () => {
  test('empty rows for a table are an error naming the table and the batch ids', async () => {
    const { data, ids, platform } = aMonitor();
    platform.set(metricsKey(A_MONITOR, 'competitor', ids), { rows: [] });
    const evidence = await collectRun(configuredRun(A_MONITOR), fakeDeps(platform, data).deps);
    expect(outcome(evidence, 'rows is empty for table=competitor', `(batchIds ${ids.join(',')})`)).toEqual(
      failed('platform'),
    );
    expect(evidence.run.batchIds).toEqual(ids);
  });

  test('contract §6: no source row for a platform the HTML has sources for, the batch tables answering, is a group the platform lacks: the run is checked, the note names it, and items 11 and 12 fail for that platform alone (platform audit of 2026-11-28: the whole run was an error); near miss: with a batch table empty too, the run stops naming both', async () => {
    const { data, ids, platform } = aMonitor();
    platform.set(metricsKey(A_MONITOR, 'source', ids, 'doubao'), { rows: [] });
    const evidence = await collectRun(configuredRun(A_MONITOR), fakeDeps(platform, data).deps);
    expect(evidence.status, evidence.reason).toBe('checked');
    expect(evidence.notes.join(' ')).toContain(
      'no row for table=source, platform=doubao, where the HTML lists sources',
    );
    const judged = judge(evidence);
    for (const item of [11, 12] as const) {
      expect(judged.items[item]?.verdict).toBe('fail');
      expect(failingSteps(judged.items[item]!)).toEqual(['doubao']);
    }
    expect([3, 4, 5, 6, 7, 8, 9, 10].map((n) => judged.items[n as 3]?.verdict)).toEqual(
      Array(8).fill('pass'),
    );
    platform.set(metricsKey(A_MONITOR, 'tmc', ids), { rows: [] });
    const stopped = await collectRun(configuredRun(A_MONITOR), fakeDeps(platform, data).deps);
    expect(outcome(stopped, 'rows is empty for table=tmc; table=source, platform=doubao')).toEqual(
      failed('platform'),
    );
    // Nor when every source table the HTML has sources for is empty: the batch's source rows are not there.
    const every = aMonitor();
    for (const key of ['all', 'doubao', 'deepseek', 'kimi', 'yuanbao', 'qianwen', 'wenxin'])
      every.platform.set(metricsKey(A_MONITOR, 'source', every.ids, key), { rows: [] });
    const none = await collectRun(configuredRun(A_MONITOR), fakeDeps(every.platform, every.data).deps);
    expect(outcome(none, 'rows is empty for table=source, platform=all')).toEqual(failed('platform'));
    // Nor when every platform's is, the aggregate's answering (review of 2026-11-28).
    const platforms = aMonitor();
    for (const key of ['doubao', 'deepseek', 'kimi', 'yuanbao', 'qianwen', 'wenxin'])
      platforms.platform.set(metricsKey(A_MONITOR, 'source', platforms.ids, key), { rows: [] });
    const six = await collectRun(configuredRun(A_MONITOR), fakeDeps(platforms.platform, platforms.data).deps);
    expect(outcome(six, 'rows is empty for table=source, platform=doubao')).toEqual(failed('platform'));
  });
});

test.describe('collectRun: cal_data_json (spec 2.1)', () => {
  function withCal(content: string | undefined) {
    const setup = aMonitor();
    const fakes = fakeDeps(setup.platform, setup.data);
    const file = path.join(fakes.dir, 'cal.json');
    if (content !== undefined) fs.writeFileSync(file, content);
    return { ...setup, fakes, run: configuredRun(A_MONITOR, { calDataJson: 'cal.json' }) };
  }

  test('of the report topic: used instead of the page, which is not read', async () => {
    const { data, fakes, run } = withCal(undefined);
    fs.writeFileSync(path.join(fakes.dir, 'cal.json'), JSON.stringify(data));
    const evidence = await collectRun(run, fakes.deps);
    expect(evidence.status, evidence.reason).toBe('checked');
    expect(evidence.run.dataSource).toBe('cal_data_json');
    expect(fakes.pages).toEqual([]);
    expect(evidence.pageLoads).toBe(0);
    expect(evidence.notes.join('\n')).toContain('cal_data_json belongs to topic T101101');
  });

  test("of another topic: the page's DATA wins and a note says so", async () => {
    const { data, fakes, run } = withCal(undefined);
    const other = { ...data, meta: { ...(data.meta as object), topic: 'T999' } };
    fs.writeFileSync(path.join(fakes.dir, 'cal.json'), JSON.stringify(other));
    const evidence = await collectRun(run, fakes.deps);
    expect(evidence.status, evidence.reason).toBe('checked');
    expect(evidence.run.dataSource).toBe('html');
    expect(fakes.pages).toHaveLength(1);
    expect(evidence.notes.join('\n')).toContain(
      "cal_data_json topic T999 differs from the report URL topic T101101: the page's DATA wins",
    );
  });

  test('unreadable or not JSON: an input error, never a silent fallback to the page', async () => {
    for (const [content, says] of [
      [undefined, ['cannot be read (ENOENT)', 'the page is not used instead']],
      ['{"meta":', ['not valid JSON']],
    ] as const) {
      const { fakes, run } = withCal(content);
      const evidence = await collectRun(run, fakes.deps);
      expect(outcome(evidence, ...says)).toEqual(failed('input'));
      expect(fakes.pages).toEqual([]);
      expect(evidence.run).toMatchObject(facts());
    }
  });

  test("not JSON: the reason says where it breaks, line and column, never the file's own text (inputs audit of 2026-11-28: V8 quotes ten characters either side of the token, which a run's reason carried to the terminal and the CI log)", async () => {
    const { fakes, run } = withCal('{"meta":{"note":"13800138000","t":t}}');
    const evidence = await collectRun(run, fakes.deps);
    expect(outcome(evidence, 'not valid JSON (Unexpected token "}" at line 1, column 36)')).toEqual(
      failed('input'),
    );
    expect(evidence.reason).not.toContain('"t":t');
  });

  test('of the report topic but another day (its meta.batch_date): an input error naming the file and both days, never compared; the page is not read instead', async () => {
    const { data, fakes, run } = withCal(undefined);
    const earlier = { ...data, meta: { ...(data.meta as object), batch_date: '2025-11-10' } };
    fs.writeFileSync(path.join(fakes.dir, 'cal.json'), JSON.stringify(earlier));
    const evidence = await collectRun(run, fakes.deps);
    expect(outcome(evidence, 'cal_data_json', 'cal.json', 'is "2025-11-10", another day')).toEqual(
      failed('input'),
    );
    expect(fakes.pages).toEqual([]);
  });

  // A cal_data_json problem is the run's input, as an unreadable or non-JSON file is.
  test('a JSON that is not a DATA: an input error naming the field', async () => {
    const { fakes, run } = withCal('{"meta":{}}');
    const evidence = await collectRun(run, fakes.deps);
    expect(evidence.reason).toContain('cal_data_json.meta.platforms');
    expect(fakes.pages).toEqual([]);
    expect(outcome(evidence, 'does not match the contract')).toEqual(failed('input'));
  });
});

test.describe('collectRun: each way a run is not checked', () => {
  test('a URL without a report type: input error naming the field; nothing is asked of anyone', async () => {
    const { data, platform } = aMonitor();
    const fakes = fakeDeps(platform, data);
    const evidence = await collectRun(
      configuredRun(A_MONITOR, { htmlUrl: `${ORIGIN}/reports/101101/2025-11-17?companyId=1001` }),
      fakes.deps,
    );
    expect(outcome(evidence, 'htmlUrl · reportType: missing')).toEqual(failed('input'));
    expect([fakes.sessions, fakes.pages, platform.calls]).toEqual([[], [], []]);
    expect(evidence.requests).toEqual([]);
  });

  test('a malformed L1_RUNS entry keeps its own error', async () => {
    const { data, platform } = aMonitor();
    const run = {
      ...configuredRun(A_MONITOR),
      inputError: 'L1_RUNS runs.json run #2: [1].htmlUrl: required',
    };
    const evidence = await collectRun(run, fakeDeps(platform, data).deps);
    expect(outcome(evidence, 'run #2: [1].htmlUrl: required')).toEqual(failed('input'));
  });

  test('a credentials error is a configuration error; the run facts and the profile are known', async () => {
    const { data, platform } = bDiagnosis();
    const fakes = fakeDeps(platform, data, {
      login: ({ key }) => {
        throw new CredentialsError(`no "profileB" entry in the credentials registry (${key})`);
      },
    });
    const evidence = await collectRun(configuredRun(B_DIAGNOSIS), fakes.deps);
    expect(outcome(evidence, 'no "profileB" entry')).toEqual(failed('configuration'));
    // Profile B by companyId 3100 before the page is read: the session asked is the group's.
    expect(fakes.sessions[0]!.key).toBe('profileB');
    expect(evidence.run).toMatchObject(facts(B_DIAGNOSIS, 'B'));
  });

  test('a login that fails: wrong credentials are configuration, a login page that does not load is platform', async () => {
    for (const [message, kind] of [
      ['login failed for company 1001: /api/auth/login answered HTTP 401', 'configuration'],
      ['login failed for company 1001: /login did not load (ECONNREFUSED)', 'platform'],
      ['login failed for company 1001: the login page answered HTTP 503', 'platform'],
    ] as const) {
      const { data, platform } = aMonitor();
      const fakes = fakeDeps(platform, data, {
        login: () => {
          throw new LoginError(message);
        },
      });
      const evidence = await collectRun(configuredRun(A_MONITOR), fakes.deps);
      expect(outcome(evidence, message)).toEqual(failed(kind));
      expect(evidence.run).toMatchObject(facts());
    }
  });

  test('the new login a page asks for fails as the first would: refused credentials are configuration, not platform', async () => {
    const { data, platform } = aMonitor();
    const message = 'login failed for company 1001: /api/auth/login answered HTTP 401';
    const fakes = fakeDeps(platform, (n: number) => (n === 1 ? new SessionExpired() : data), {
      login: (call) => {
        if (call.force) throw new LoginError(message);
      },
    });
    const evidence = await collectRun(configuredRun(A_MONITOR), fakes.deps);
    expect(outcome(evidence, message)).toEqual(failed('configuration'));
    expect(fakes.sessions.map((c) => c.force)).toEqual([false, true]);
  });

  test('B-monitor on the group portal: Profile B by its host, the page logs in at the portal', async () => {
    const { view } = viewsOf(B_MONITOR);
    const platform = platformFor(B_MONITOR, view, B_MONITOR.spec.batchIds, [
      batchItem(B_MONITOR, B_MONITOR.spec.batchIds),
    ]);
    const fakes = fakeDeps(platform, new Error('the report page defines no DATA variable'));
    const evidence = await collectRun(configuredRun(B_MONITOR), fakes.deps);
    expect(outcome(evidence, 'report page', 'defines no DATA')).toEqual(failed('input'));
    expect(fakes.sessions).toEqual([{ loginBase: PORTAL_B_ORIGIN, key: 'profileB', force: false }]);
    expect(evidence.run).toMatchObject(facts(B_MONITOR, 'B'));
  });

  test('a browser that cannot be started is the configuration, not the page: no endpoint is asked', async () => {
    const { platform } = aMonitor();
    const launch = Object.assign(new Error('the browser could not be started (no such executable)'), {
      name: BROWSER_NOT_STARTED,
    });
    const fakes = fakeDeps(platform, launch);
    const evidence = await collectRun(configuredRun(A_MONITOR), fakes.deps);
    expect(outcome(evidence, 'report page', 'the browser could not be started')).toEqual(
      failed('configuration'),
    );
  });

  test("a page error keeps Playwright's message, not the browser's command line or the call log Playwright appends", async () => {
    const { platform } = aMonitor();
    for (const [message, cause] of [
      [
        'page.evaluate: Target page, context or browser has been closed\nBrowser logs:\n\n<launching> /usr/lib/chromium/chromium-headless-shell --disable-field-trial-config --no-sandbox',
        'page.evaluate: Target page, context or browser has been closed',
      ],
      [
        'page.goto: net::ERR_ABORTED at http://127.0.0.1:9/r\nCall log:\n  - navigating to "http://127.0.0.1:9/r", waiting until "load"\n',
        'page.goto: net::ERR_ABORTED at http://127.0.0.1:9/r',
      ],
    ] as const) {
      const evidence = await collectRun(
        configuredRun(A_MONITOR),
        fakeDeps(platform, new Error(message)).deps,
      );
      expect(evidence.status).toBe('error');
      expect(evidence.reason?.startsWith('report page ')).toBe(true);
      expect(evidence.reason?.endsWith(`: ${cause}`), evidence.reason).toBe(true);
    }
  });

  test('a page redirected to /login: one new login, then the page is read again', async () => {
    const { data, platform } = aMonitor();
    const fakes = fakeDeps(platform, (attempt: number) => (attempt === 1 ? new SessionExpired() : data));
    const evidence = await collectRun(configuredRun(A_MONITOR), fakes.deps);
    expect(evidence.status, evidence.reason).toBe('checked');
    expect(fakes.sessions.map((s) => s.force)).toEqual([false, true, false]);
    expect(evidence.pageLoads).toBe(2);
  });

  test('a page redirected to /login again after the new login is an error', async () => {
    const { platform } = aMonitor();
    const fakes = fakeDeps(platform, new SessionExpired());
    const evidence = await collectRun(configuredRun(A_MONITOR), fakes.deps);
    expect(outcome(evidence, 'redirected to /login even after logging in again')).toEqual(failed('input'));
    expect(evidence.pageLoads).toBe(2);
  });

  test('docs/contract.md §3: a report on an origin credentials may not go to is read without a session; a login it asks for is refused, nothing is posted', async () => {
    const { data, platform } = aMonitor();
    const elsewhere = configuredRun(A_MONITOR, {
      htmlUrl: configuredRun(A_MONITOR).input.htmlUrl.replace(ORIGIN, 'http://127.0.0.9:7000'),
    });
    const asks = fakeDeps(platform, new SessionExpired());
    const refused = await collectRun(elsewhere, asks.deps);
    expect(refused).toMatchObject({ status: 'error', failureKind: 'configuration' });
    expect(refused.reason).toContain(
      'asks for a login on http://127.0.0.9:7000, which is not an origin credentials may go to',
    );
    expect(refused.reason).toContain('L1_LOGIN_ORIGINS');
    expect(asks.sessions).toEqual([]);
    expect(asks.pageStates).toEqual([undefined]);
    // A report host that shows its page without a login is read without a session; only the API logs in.
    const open = fakeDeps(platform, data);
    const read = await collectRun(elsewhere, open.deps);
    expect(read.status, read.reason).toBe('checked');
    expect(open.pageStates).toEqual([undefined]);
    expect(open.sessions.map((c) => c.loginBase)).toEqual([ORIGIN]);
  });

  test('contract §3: a report on a trusted origin other than base_url is opened without logging in there; only when it redirects to its own /login are credentials posted there, and the page loaded again', async () => {
    const { data, platform } = aMonitor();
    const other = 'http://127.0.0.9:7000';
    const elsewhere = configuredRun(A_MONITOR, {
      htmlUrl: configuredRun(A_MONITOR).input.htmlUrl.replace(ORIGIN, other),
    });
    const loginOrigins = [other];
    // It shows its page without a session: nothing is posted to it, only the API logs in.
    const open = fakeDeps(platform, data);
    const read = await collectRun(elsewhere, { ...open.deps, loginOrigins });
    expect(read.status, read.reason).toBe('checked');
    expect(open.pageStates).toEqual([undefined]);
    expect(open.sessions.map((c) => c.loginBase)).toEqual([ORIGIN]);
    // It asks for a login: logged in there (named in L1_LOGIN_ORIGINS), then read with that session.
    const asks = fakeDeps(platform, (n: number) => (n === 1 ? new SessionExpired() : data));
    const asked = await collectRun(elsewhere, { ...asks.deps, loginOrigins });
    expect(asked.status, asked.reason).toBe('checked');
    expect(asked.pageLoads).toBe(2);
    expect(asks.pageStates.map((s) => s !== undefined)).toEqual([false, true]);
    expect(asks.sessions.map((c) => [c.loginBase, c.force])).toEqual([
      [other, false],
      [ORIGIN, false],
    ]);
    // Asked again with that session: one new login there, then the run stops.
    const again = fakeDeps(platform, new SessionExpired());
    const stopped = await collectRun(elsewhere, { ...again.deps, loginOrigins });
    expect(stopped).toMatchObject({ status: 'error' });
    expect(stopped.reason).toContain('redirected to /login even after logging in again');
    expect(again.pageStates.map((s) => s !== undefined)).toEqual([false, true, true]);
    expect(again.sessions.map((c) => [c.loginBase, c.force])).toEqual([
      [other, false],
      [other, true],
    ]);
  });

  test('trusted login origins: the base URL, the Profile B portal host, L1_LOGIN_ORIGINS; nothing else', () => {
    const deps = { profileB: { host: 'portal.test:8443' }, loginOrigins: ['https://reports.test'] };
    const base = 'https://geo.test/api';
    expect(trustedLoginOrigin('https://geo.test/r/1', base, deps)).toBe(true);
    expect(trustedLoginOrigin('https://portal.test:8443/r/1', base, deps)).toBe(true);
    expect(trustedLoginOrigin('https://reports.test/r/1', base, deps)).toBe(true);
    expect(trustedLoginOrigin('http://reports.test/r/1', base, deps)).toBe(false);
    expect(trustedLoginOrigin('https://geo.test:444/r/1', base, deps)).toBe(false);
    expect(trustedLoginOrigin('https://evil.test/r/1', base, { profileB: {} })).toBe(false);
  });

  test('the Profile B host in another letter case or with a default port: trusted, and only that origin', () => {
    const base = 'https://geo.test/api';
    for (const host of ['Portal.Test', 'portal.test:443', 'PORTAL.TEST:443'])
      expect(trustedLoginOrigin('https://portal.test/r/1', base, { profileB: { host } }), host).toBe(true);
    expect(trustedLoginOrigin('http://portal.test/r/1', base, { profileB: { host: 'portal.test:80' } })).toBe(
      true,
    );
    // Never to another port, nor to a host that merely shares a prefix.
    const deps = { profileB: { host: 'Portal.Test:443' } };
    expect(trustedLoginOrigin('http://portal.test/r/1', base, deps)).toBe(false);
    expect(trustedLoginOrigin('https://portal.test:8443/r/1', base, deps)).toBe(false);
    expect(trustedLoginOrigin('https://portal.test.evil.test/r/1', base, deps)).toBe(false);
    expect(trustedLoginOrigin('https://portal.tes/r/1', base, deps)).toBe(false);
  });

  test('B-monitor with the portal host spelled in capitals and :80: Profile B, login and page origin at the portal', async () => {
    const { view } = viewsOf(B_MONITOR);
    const platform = platformFor(B_MONITOR, view, B_MONITOR.spec.batchIds, [
      batchItem(B_MONITOR, B_MONITOR.spec.batchIds),
    ]);
    const fakes = fakeDeps(platform, new Error('the report page defines no DATA variable'));
    const origins: (readonly string[])[] = [];
    const readPage = fakes.deps.readPage;
    const deps = {
      ...fakes.deps,
      profileB: { ...fakes.deps.profileB, host: `${PORTAL_B_HOST.toUpperCase()}:80` },
      readPage: (url: string, state: string | undefined, allowed: readonly string[]) => {
        origins.push(allowed);
        return readPage(url, state, allowed);
      },
    };
    const evidence = await collectRun(configuredRun(B_MONITOR), deps);
    expect(evidence.run.profile).toBe('B');
    expect(fakes.sessions).toEqual([{ loginBase: PORTAL_B_ORIGIN, key: 'profileB', force: false }]);
    expect(origins[0]).toContain(PORTAL_B_ORIGIN);
    expect(origins[0]!.filter((o) => /portal/i.test(o))).toEqual([PORTAL_B_ORIGIN]);
  });

  test('a DATA of the wrong shape is an error naming the field', async () => {
    const { data, platform } = aMonitor();
    const brand = { ...(data.brand as Record<string, unknown>) };
    delete brand.summary;
    const evidence = await collectRun(configuredRun(A_MONITOR), fakeDeps(platform, { ...data, brand }).deps);
    expect(outcome(evidence, 'report page DATA', 'brand.summary')).toEqual(failed('input'));
    expect(evidence.run).toMatchObject(facts());
  });

  test("a DATA whose meta.batch_date names another day is another day's report: an input error naming both days, no endpoint asked (it was checked and passed every item: foolproof audit of 2026-11-28); near miss: the same day written YYYYMMDD, a time whose day depends on its zone, or no date, is checked", async () => {
    const stale = batchDated('2025-11-03');
    const evidence = await collectRun(configuredRun(A_MONITOR), stale.deps);
    expect(
      outcome(
        evidence,
        'report page DATA',
        'DATA.meta.batch_date is "2025-11-03", another day than the run\'s batch date 2025-11-17',
      ),
    ).toEqual(failed('input'));
    expect(evidence.run).toMatchObject(facts());
    expect(stale.platform.callsTo('/metrics/l1')).toEqual([]);
    await expectRunDay(['20251117', ' 2025-11-17 ', '2025-11-16T16:00:00Z', 20251117, 'latest', null], false);
  });

  test("docs/contract.md §5 meta.batch_date is optional: a DATA without it, or with null, is checked, and the run's notes say its day was not (review 59r: it was left out in silence, where a value the suite cannot read was noted)", async () => {
    const { data, platform } = aMonitor();
    const meta = { ...(data.meta as Record<string, unknown>) };
    delete meta.batch_date;
    const missing = await collectRun(configuredRun(A_MONITOR), fakeDeps(platform, { ...data, meta }).deps);
    const none = await collectRun(configuredRun(A_MONITOR), batchDated(null).deps);
    const noted = (what: string) =>
      `DATA.meta.batch_date is ${what} (optional, docs/contract.md §5): whether the DATA is the batch date's report was not checked`;
    expect([missing.status, none.status]).toEqual(['checked', 'checked']);
    expect(missing.notes).toContain(noted('missing'));
    expect(none.notes).toContain(noted('null'));
  });

  test("docs/contract.md §5 meta.batch_date as a generator writes a day: a JSON number YYYYMMDD, YYYY/MM/DD, YYYY.MM.DD or YYYY年M月D日 of another day is another day's report, an input error naming both days (HTML-side audit 59f: 20251103 was checked and passed); near misses: the run's day in those forms is checked, and a value the suite cannot read is checked with a note saying the day was not", async () => {
    await expectAnotherDay([20251103, '2025/11/03', '2025.11.03', '2025年11月3日']);
    await expectRunDay([20251117, '2025/11/17', '2025.11.17', '2025年11月17日']);
    for (const unread of ['latest', 1763337600000, '2025/13/03']) {
      const checked = await collectRun(configuredRun(A_MONITOR), batchDated(unread).deps);
      expect(checked.status, `${unread}: ${checked.reason}`).toBe('checked');
      expect(checked.notes, String(unread)).toContain(
        `DATA.meta.batch_date ${JSON.stringify(unread)} is not a day the suite reads: whether the DATA is the batch date's report was not checked`,
      );
    }
  });

  test("docs/contract.md §5 meta.batch_date with a local time in a generator's other forms (an unpadded hour, 上午/下午 as zh-CN's 12-hour clock writes it, no space after 日) names its written day: another day's is an input error, the run's day is checked without a note", async () => {
    // ab41029 read the time only as the batch list's HH:MM, so these were 'not a day the suite
    // reads' and a stale DATA was compared with the run's batch (review 59n).
    await expectAnotherDay([
      '2025/11/3 上午8:00:00',
      '2025-11-03 8:00',
      '2025年11月3日08:00',
      '2025/11/3 8:00 PM',
    ]);
    await expectRunDay(['2025/11/17 下午8:00:00', '2025-11-17 8:00', '2025年11月17日08:00']);
    // A time the suite cannot read is still said, never taken for a day: 「上午」 with no clock.
    const odd = await collectRun(configuredRun(A_MONITOR), batchDated('2025/11/3 上午').deps);
    expect(odd.notes.join(' ')).toContain('is not a day the suite reads');
  });

  test("docs/contract.md §5 meta.batch_date in a generator's form with a time or an unpadded day (2025/11/03 08:00:00, 2025年11月3日 08:00, 2025-11-3) is another day's report too, an input error; near miss: the run's day so written is checked without a note (review 59i)", async () => {
    await expectAnotherDay(['2025/11/03 08:00:00', '2025年11月3日 08:00', '2025.11.03 23:59', '2025-11-3']);
    await expectRunDay(['2025/11/17 08:00:00', '2025年11月17日 08:00', '2025-11-17 08:00']);
  });

  test("a DATA whose meta.batch_date is a date-time of another day is another day's report too, read as the batch list's batchDate is (docs/contract.md §4.1: a local date-time names its written day, an instant its day in L1_TIME_ZONE); near miss: an instant of the run's day in that zone is checked", async () => {
    await expectAnotherDay(['2025-11-10 08:00:00']);
    await expectAnotherDay(
      ['2025-11-10T00:00:00+08:00', '2025-11-09T16:00:00.000Z'],
      ' (2025-11-10 in Asia/Shanghai)',
    );
    await expectRunDay(['2025-11-17 23:00:00', '2025-11-16T16:00:00Z', '2025-11-17T09:30:00+08:00'], false);
  });

  test("a DATA of another day recognised as Profile B by its meta.line alone: the input error's verdict says profile B, the profile its line gives (docs/contract.md §2), not the URL's A", async () => {
    const { data, platform } = aMonitor();
    const meta = {
      ...(data.meta as Record<string, unknown>),
      line: `${PROFILE_B.groupName} · 电视线`,
      batch_date: '2025-11-03',
    };
    const evidence = await collectRun(configuredRun(A_MONITOR), fakeDeps(platform, { ...data, meta }).deps);
    expect(outcome(evidence, 'DATA.meta.batch_date is "2025-11-03"')).toEqual(failed('input'));
    expect(evidence.run.profile).toBe('B');
  });

  test('docs/contract.md §3: a 401 mid-run logs in again once and the run is checked', async () => {
    const { data, ids, platform, view } = aMonitor();
    platform.set(metricsKey(A_MONITOR, 'tmc', ids), new Sequence(new Reply(401), { rows: view.tmc }));
    const fakes = fakeDeps(platform, data);
    const evidence = await collectRun(configuredRun(A_MONITOR), fakes.deps);
    expect(evidence.status, evidence.reason).toBe('checked');
    expect(fakes.sessions.filter((s) => s.force)).toEqual([
      { loginBase: ORIGIN, key: 'company:1001', force: true },
    ]);
    expect(platform.opened).toBe(2);
    expect(platform.disposed).toBe(2);
    expect(evidence.requests.find((r) => r.endpoint.includes('table=tmc'))).toMatchObject({
      status: 200,
      attempts: 2,
    });
  });

  test('docs/contract.md §3: a 401 again after the re-login is a platform error', async () => {
    const { data, ids, platform } = aMonitor();
    platform.set(metricsKey(A_MONITOR, 'tmc', ids), new Reply(401));
    const evidence = await collectRun(configuredRun(A_MONITOR), fakeDeps(platform, data).deps);
    expect(outcome(evidence, 'table=tmc', 'HTTP 401 Unauthorized again after one re-login')).toEqual(
      failed('platform'),
    );
  });

  test('endpoints that fail alike are said once, with their failure: every table answering 403 is one line naming each table, not four copies of one sentence (reader audit of 2026-11-28: the reason was cut in the middle of the third); near miss: another failure beside them keeps its own line', async () => {
    const { data, ids, platform } = aMonitor();
    for (const table of ['snapshot', 'competitor', 'tmc'] as const)
      platform.set(metricsKey(A_MONITOR, table, ids), new Reply(403));
    const evidence = await collectRun(configuredRun(A_MONITOR), fakeDeps(platform, data).deps);
    expect(evidence.status).toBe('error');
    expect(evidence.reason!.match(/HTTP 403/g)).toHaveLength(1);
    expect(evidence.reason).toContain(
      'GET /api/geo-monitor/metrics/l1 (table=snapshot): HTTP 403: the account of this run may not read this company or project: check the credentials entry; likewise GET /api/geo-monitor/metrics/l1 (table=competitor) · GET /api/geo-monitor/metrics/l1 (table=tmc)',
    );
    const mixed = aMonitor();
    mixed.platform.set(metricsKey(A_MONITOR, 'competitor', mixed.ids), new Reply(403));
    mixed.platform.set(metricsKey(A_MONITOR, 'tmc', mixed.ids), new Reply(404));
    const both = await collectRun(configuredRun(A_MONITOR), fakeDeps(mixed.platform, mixed.data).deps);
    expect(both.reason!.split(' | ')).toHaveLength(2);
  });

  test('every endpoint failing alike: the summary, which keeps 300 characters of a reason, still says the failure and what to check (review of 2026-11-28: with the five endpoints listed before it, the advice was cut)', async () => {
    const { data, ids, platform } = aMonitor();
    for (const table of ['snapshot', 'competitor', 'tmc'] as const)
      platform.set(metricsKey(A_MONITOR, table, ids), new Reply(403));
    platform.set(metricsKey(A_MONITOR, 'source', ids, 'all'), new Reply(403));
    platform.set(wordcloudKey(A_MONITOR, ids[0]!), new Reply(403));
    const evidence = await collectRun(configuredRun(A_MONITOR), fakeDeps(platform, data).deps);
    const shown = safeText(evidence.reason!, REASON_MAX);
    expect(shown).toContain(
      'HTTP 403: the account of this run may not read this company or project: check the credentials entry',
    );
    for (const endpoint of [
      'table=snapshot',
      'table=competitor',
      'table=tmc',
      '/wordcloud',
      'table=source, platform=all',
    ])
      expect(evidence.reason!.split(endpoint), endpoint).toHaveLength(2);
  });

  test('403 is not retried: a platform error naming the endpoint and what to check', async () => {
    const { data, ids, platform } = aMonitor();
    platform.set(metricsKey(A_MONITOR, 'competitor', ids), new Reply(403));
    const evidence = await collectRun(configuredRun(A_MONITOR), fakeDeps(platform, data).deps);
    expect(outcome(evidence, 'table=competitor', 'HTTP 403', 'check the credentials entry')).toEqual(
      failed('platform'),
    );
    expect(platform.callsTo('table=competitor')).toHaveLength(1);
    expect(evidence.run).toMatchObject(facts());
    expect(evidence.requests.length).toBeGreaterThan(0);
  });

  test('docs/contract.md §4: a 5xx is retried; one that stays is an error after 3 attempts', async () => {
    const { data, ids, platform, view } = aMonitor();
    platform.set(
      metricsKey(A_MONITOR, 'snapshot', ids),
      new Sequence(new Reply(502), { rows: view.snapshot }),
    );
    const recovered = await collectRun(configuredRun(A_MONITOR), fakeDeps(platform, data).deps);
    expect(recovered.status, recovered.reason).toBe('checked');

    const again = aMonitor();
    again.platform.set(metricsKey(A_MONITOR, 'snapshot', again.ids), new Reply(500));
    const evidence = await collectRun(configuredRun(A_MONITOR), fakeDeps(again.platform, again.data).deps);
    expect(outcome(evidence, 'table=snapshot', 'HTTP 500 after 3 attempts')).toEqual(failed('platform'));
    expect(again.platform.callsTo('table=snapshot')).toHaveLength(3);
  });

  test('a wrapped answer with an error code is an API error with its code and message', async () => {
    const { data, ids, platform } = aMonitor();
    platform.set(metricsKey(A_MONITOR, 'tmc', ids), { code: 500, msg: '指标服务暂不可用', data: null });
    const evidence = await collectRun(configuredRun(A_MONITOR), fakeDeps(platform, data).deps);
    expect(outcome(evidence, 'API error code 500: 指标服务暂不可用')).toEqual(failed('platform'));
  });

  test('an error code that is no code (an array nested 200,000 deep, an object, a long string) is named by its kind, with the endpoint: never a stack overflow for a reason', async () => {
    const deep = `{"code":${'['.repeat(200_000)}0${']'.repeat(200_000)},"msg":"deep"}`;
    for (const [body, says] of [
      [deep, 'API error code (an array, not a code): deep'],
      ['{"code":{"x":1},"msg":"obj"}', 'API error code (object, not a code): obj'],
      [`{"code":"${'E'.repeat(500)}","msg":"long"}`, `API error code "${'E'.repeat(80)}…": long`],
    ] as const) {
      const { data, ids, platform } = aMonitor();
      platform.set(metricsKey(A_MONITOR, 'tmc', ids), new Reply(200, body));
      const evidence = await collectRun(configuredRun(A_MONITOR), fakeDeps(platform, data).deps);
      expect(outcome(evidence, says, 'metrics/l1 (table=tmc)')).toEqual(failed('platform'));
    }
  });

  test('a payload of the wrong shape is an error naming the endpoint and the field', async () => {
    const { data, ids, platform, view } = aMonitor();
    const rows = view.competitor.map((r, i) => (i === 0 ? { ...r, name: 42 } : r));
    platform.set(metricsKey(A_MONITOR, 'competitor', ids), { rows });
    const evidence = await collectRun(configuredRun(A_MONITOR), fakeDeps(platform, data).deps);
    expect(outcome(evidence, 'table=competitor', 'rows[0].name')).toEqual(failed('platform'));
  });

  test('docs/contract.md §5 "fields a run does not use are never validated against it": two snapshot or tmc rows of a seventh platform or of a key DATA does not list fail no run (no item reads them), and two of the aggregate or of one of the six AI platforms still do, naming the table and the key', async () => {
    const { data, ids, platform, view } = aMonitor();
    const meta = data.meta as { platforms: { key: string; name: string }[] };
    const seventh = {
      ...data,
      meta: { ...meta, platforms: [...meta.platforms, { key: 'baidu', name: '百度' }] },
    };
    const clean = await collectRun(configuredRun(A_MONITOR), fakeDeps(platform, seventh).deps);
    const unread = ['baidu', 'google'];
    const aggregate = view.snapshot.find((r) => r.platform === 'all')!;
    const twice = (key: string) => {
      const answers = platformFor(A_MONITOR, view, ids, [
        batchItem(A_MONITOR, ['L1M-101101-20251110-H'], '2025-11-10'),
        batchItem(A_MONITOR, ids),
      ]);
      const rows = [0, 1].map(() => ({ ...aggregate, platform: key }));
      answers.set(metricsKey(A_MONITOR, 'snapshot', ids), { rows: [...view.snapshot, ...rows] });
      const tmc = [1, 2].map((value) => ({ platform: key, dimension: 'content_type', name: '长图', value }));
      answers.set(metricsKey(A_MONITOR, 'tmc', ids), { rows: [...view.tmc, ...tmc] });
      return answers;
    };
    for (const key of unread) {
      const evidence = await collectRun(configuredRun(A_MONITOR), fakeDeps(twice(key), seventh).deps);
      expect([key, evidence.status, evidence.reason]).toEqual([key, 'checked', undefined]);
      expect(Object.values(judge(evidence).items).map((i) => i?.verdict)).toEqual(
        Object.values(judge(clean).items).map((i) => i?.verdict),
      );
    }
    for (const read of [meta.platforms[0]!.key, 'all']) {
      const evidence = await collectRun(configuredRun(A_MONITOR), fakeDeps(twice(read), seventh).deps);
      expect(
        outcome(
          evidence,
          `GET /api/geo-monitor/metrics/l1 (table=snapshot) does not match the contract: payload.rows[${view.snapshot.length}].platform: duplicate snapshot row for platform "${read}"`,
          `GET /api/geo-monitor/metrics/l1 (table=tmc) does not match the contract: payload.rows[${view.tmc.length + 1}].name: duplicate tmc row (platform "${read}", dimension content_type, name "长图")`,
        ),
      ).toEqual(failed('platform'));
    }
  });

  test('spec 9.5.2 "brand-level comparison keeps only kind=brand rows": two product rows of one name fail no Profile B brand-level run (it never reads them), and still fail a Profile A run and a product-level one, which read them by name', async () => {
    const twice = (view: { competitor: Record<string, unknown>[] }) => [
      ...view.competitor,
      { ...view.competitor[0], kind: 'product', name: '纯牛奶', rank: 98 },
      { ...view.competitor[0], kind: 'product', name: '纯牛奶', rank: 99 },
    ];
    const b = viewsOf(B_MONITOR);
    const bClean = platformFor(B_MONITOR, b.view, B_MONITOR.spec.batchIds, [
      batchItem(B_MONITOR, B_MONITOR.spec.batchIds),
    ]);
    const bTwice = platformFor(B_MONITOR, b.view, B_MONITOR.spec.batchIds, [
      batchItem(B_MONITOR, B_MONITOR.spec.batchIds),
    ]);
    bTwice.set(metricsKey(B_MONITOR, 'competitor', B_MONITOR.spec.batchIds), { rows: twice(b.view) });
    const clean = await collectRun(configuredRun(B_MONITOR), fakeDeps(bClean, b.data).deps);
    const evidence = await collectRun(configuredRun(B_MONITOR), fakeDeps(bTwice, b.data).deps);
    expect([evidence.status, evidence.reason]).toEqual(['checked', undefined]);
    expect(judge(evidence).items[5]?.verdict).toBe(judge(clean).items[5]?.verdict);
    const product = await collectRun(
      configuredRun(B_MONITOR, { level: 'product' }),
      fakeDeps(bTwice, b.data).deps,
    );
    expect(outcome(product, 'table=competitor', 'duplicate competitor row "纯牛奶" (kind product)')).toEqual(
      failed('platform'),
    );
    const { data, ids, platform, view } = aMonitor();
    platform.set(metricsKey(A_MONITOR, 'competitor', ids), { rows: twice(view) });
    const a = await collectRun(configuredRun(A_MONITOR), fakeDeps(platform, data).deps);
    expect(outcome(a, 'table=competitor', 'duplicate competitor row "纯牛奶" (kind product)')).toEqual(
      failed('platform'),
    );
  });

  test('the batch list of the wrong shape is an error naming the field', async () => {
    const { data, platform } = aMonitor();
    // The run's own item (its date and project) without its ids; other items are not validated
    // (docs/contract.md §4.1, tests/unit/platform-parsing.spec.ts).
    platform.set(batchKey(A_MONITOR), [{ batchDate: '2025-11-17', project: A_MONITOR.spec.projectId }]);
    const evidence = await collectRun(configuredRun(A_MONITOR), fakeDeps(platform, data).deps);
    expect(outcome(evidence, 'GET /api/geo_label/project/batch', 'l1CrawlBatchIds')).toEqual(
      failed('platform'),
    );
  });
});

test.describe('collectRun: fields a run does not use are never validated against it (contract §5)', () => {
  /** DATA with every field only Profile B reads in a shape the contract does not permit. */
  const withBadProfileBFields = (data: unknown) => {
    const d = structuredClone(data) as {
      overall?: unknown;
      meta: Record<string, unknown>;
      brand: { summary: Record<string, unknown>; platforms: Record<string, Record<string, unknown>> };
    };
    d.overall = []; // an empty object as PHP writes it
    d.meta.position_metric = 'top4';
    d.brand.summary.product_link = 'n/a';
    d.brand.summary.avg_top5_rate = {};
    for (const block of Object.values(d.brand.platforms)) {
      (block.self as Record<string, unknown>).top5_rate = 'n/a';
      for (const point of block.trend as Record<string, unknown>[]) point.brand_exposure_rate = true;
    }
    return d;
  };

  test('a Profile A run is checked whatever shape overall, position_metric and the first-position, top-5, product-link and brand-exposure figures have (contract §5: "Fields a run does not use are never validated against it")', async () => {
    const { data, platform } = aMonitor();
    const evidence = await collectRun(
      configuredRun(A_MONITOR),
      fakeDeps(platform, withBadProfileBFields(data)).deps,
    );
    expect(evidence.status, evidence.reason).toBe('checked');
    expect(evidence.parsed!.data.overall).toBeUndefined();
  });

  test('near miss: a Profile B run reads them, so the same DATA is an error naming the field', async () => {
    const { data, view } = viewsOf(B_MONITOR);
    const platform = platformFor(B_MONITOR, view, B_MONITOR.spec.batchIds, [
      batchItem(B_MONITOR, B_MONITOR.spec.batchIds),
    ]);
    const evidence = await collectRun(
      configuredRun(B_MONITOR),
      fakeDeps(platform, withBadProfileBFields(data)).deps,
    );
    expect(outcome(evidence, 'report page DATA', 'DATA.overall')).toEqual(failed('input'));
  });
});
