import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from './test-type';
import { retryPending, skipsNotChecked } from '../../fixtures/check';
import { initialEvidence } from '../../lib/platform/evidence';
import { judge, runFolder, writeJudged, type JudgedItem, type JudgedRun } from '../../lib/report/judged';
import { ITEM_RULES } from '../../lib/rules';
import { writeTestRecord, type TestRecord } from '../../lib/report/records';
import { closedUnderIt, INTERRUPTED_MARK, runVerdict } from '../../lib/report/run-verdict';
import {
  BATCH_ID_MAX,
  BATCH_IDS_KEPT,
  buildVerdict,
  MISMATCHES_KEPT,
  REASON_MAX,
  type VerdictContext,
} from '../../lib/report/verdict';
import type { Invocation } from '../../lib/run/invocation';
import type { ConfiguredRun } from '../../lib/run/runs';
import type { ComparisonRow, ItemNumber } from '../../lib/rules/types';
import { verdictFileSchema, verdictIndexSchema } from '../../lib/schema/verdict';
import { stopwatch } from '../../lib/util/clock';
import { gridText, summarize } from '../../lib/report/night';
import { tempDir } from './fakes/temp';
import { context as ruleContext } from './builders';

/** buildVerdict: the verdict file of one run (docs/contract.md §7), from its judged result and its tests' records. */

const run: ConfiguredRun = {
  label: 'A-monitor',
  slug: 'A-monitor',
  input: {
    htmlUrl: 'http://127.0.0.1/reports/101101/monitor/2025-11-17?companyId=1001&token=s3cr3t-value',
    platformUrl: 'http://127.0.0.1/platform/projects/101101/overview',
  },
};

function row(key: string, verdict: 'pass' | 'fail', html: ComparisonRow['html'] = 1): ComparisonRow {
  return { key, html, platform: 2, gap: 1, tolerance: '≤ 0.1', verdict };
}

function result(item: ItemNumber, verdict: 'pass' | 'fail', rows: ComparisonRow[] = []): JudgedItem {
  return {
    item,
    title: `item ${item}`,
    verdict,
    steps: [{ id: `${item}.1`, name: 'values', verdict, rows, notes: [] }],
    notes: [],
  };
}

function judged(extra: Partial<JudgedRun> = {}, items: JudgedItem[] = []): JudgedRun {
  const e = initialEvidence(run);
  return {
    run: {
      ...e.run,
      companyId: 1001,
      projectId: '101101',
      reportType: 'monitor',
      batchDate: '2025-11-17',
      batchIds: ['b1', 'b2'],
    },
    status: 'checked',
    notes: ['profile A: no Profile B rule matched (spec 9.1.1)'],
    items: Object.fromEntries(items.map((i) => [i.item, i])),
    requests: [],
    pageLoads: 1,
    pictureLoads: 0,
    durationMs: 1000,
    shots: [],
    ...extra,
  };
}

function record(test: TestRecord['test'], status: TestRecord['status']): TestRecord {
  return { test, status, durationMs: 10 };
}

const COMPLETE = { filters: [], shard: null, complete: true };
/** Most tests give a few items: a partial selection (`--grep`), whose verdicts list what ran. */
const context: VerdictContext = {
  selection: { filters: ['--grep A-monitor'], shard: null, complete: false },
  suite: { name: 'l1-verify', version: '0.1.0' },
  generatedAt: '2025-11-18T02:00:00.000Z',
  profileB: {},
};

const ALL = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12] as const;
/** The records of a run whose collection and ten item tests all passed. */
const allPassed = (): TestRecord[] => [
  record('collection', 'passed'),
  ...ALL.map((n) => record(n, 'passed')),
];

/**
 * Every `name` a file of the suite, its scripts or its setup (TypeScript or JavaScript: npm test's
 * stage runner is scripts/stage.mjs) sets from `Date.now()` and subtracts from `Date.now()` again:
 * a duration on the wall clock, where lib/util/clock.ts `stopwatch` reads the monotonic one. The
 * bench (scripts/bench/) times whole processes against each other on purpose and is left out.
 */
function wallClockDurations(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = path.join(dir, e.name);
      if (e.isDirectory() && rel !== path.join('scripts', 'bench')) walk(rel);
      else if (e.isFile() && /\.(?:ts|mjs|cjs|js)$/.test(rel)) {
        const text = fs.readFileSync(path.join(root, rel), 'utf8');
        for (const [, name] of text.matchAll(/\b(\w+)\s*=\s*Date\.now\(\)/g))
          if (new RegExp(`Date\\.now\\(\\)\\s*-\\s*${name}\\b`).test(text)) found.push(`${rel}: ${name}`);
      }
    }
  };
  for (const dir of ['lib', 'fixtures', 'pages', 'scripts', path.join('tests', 'setup')]) walk(dir);
  return found;
}

test.describe('buildVerdict (docs/contract.md §7)', () => {
  test("each item's verdict is its test's status: passed → pass, anything else → fail, saying why", () => {
    const v = buildVerdict(
      run,
      judged({}, [
        result(5, 'fail', [row('k', 'fail')]),
        result(3, 'pass'),
        result(6, 'fail', [row('w', 'fail')]),
        result(7, 'pass'),
      ]),
      [
        record(5, 'failed'),
        record(3, 'passed'),
        record(4, 'timedOut'),
        record(6, 'passed'),
        record(7, 'failed'),
      ],
      context,
    );
    expect(v.items.map((i) => [i.item, i.verdict])).toEqual([
      [3, 'pass'],
      [4, 'fail'],
      [5, 'fail'],
      [6, 'pass'],
      [7, 'fail'],
    ]);
    expect(v.items.find((i) => i.item === 4)!.notes).toEqual(['the item test ended timedOut']);
    expect(v.items.find((i) => i.item === 6)!.notes).toEqual(['the rule said fail, the test ended pass']);
    expect(v.items.find((i) => i.item === 7)!.notes).toEqual(['the rule said pass, the test ended fail']);
    expect(verdictFileSchema.parse(v)).toEqual(v);
  });

  test('an item test that failed or timed out while its rule passed (a full disk under its compared values) makes the run not checked, with the error: never FAIL on values that did not differ, never exit 1 (file-system audit)', () => {
    const enospc = 'ENOSPC: no space left on device, write';
    const results = ALL.map((n) => result(n, n === 5 ? 'fail' : 'pass', n === 5 ? [row('k', 'fail')] : []));
    const records = allPassed().map((r) =>
      r.test === 7 || r.test === 9
        ? { ...r, status: 'failed' as const, error: enospc }
        : r.test === 5
          ? { ...r, status: 'failed' as const }
          : r,
    );
    // A kind the collection left on a run it checked is not this error's.
    const v = buildVerdict(run, judged({ failureKind: 'input' }, results), records, {
      ...context,
      selection: COMPLETE,
    });
    expect(v.status).toBe('error');
    expect(v.failureKind).toBeUndefined();
    expect(v.reason).toBe(
      `items 7, 9: the rule passed, but the test failed (${enospc}): not a difference in the values, the run could not be checked whole`,
    );
    expect(verdictFileSchema.parse(v)).toEqual(v);
    const night = summarize([v], COMPLETE);
    expect(night.exitCode).toBe(2);
    // Item 5 differed on its values: FAIL, counted; items 7 and 9 did not: not FAIL.
    expect(gridText(night).split('\n')[1]).toMatch(
      /^A-monitor +pass +pass +FAIL +pass +· +pass +· +pass +pass +pass +error/,
    );
    expect(night.counts.failingItemsNotChecked).toBe(1);
    // Near miss: a test that failed because its rule failed is the values' failure, the run checked.
    const differs = buildVerdict(
      run,
      judged({}, results),
      allPassed().map((r) => (r.test === 5 ? { ...r, status: 'failed' as const } : r)),
      { ...context, selection: COMPLETE },
    );
    expect(differs.status).toBe('checked');
    expect(summarize([differs], COMPLETE).exitCode).toBe(1);
    // Retried (`--retries=1`: a record for each attempt), each item is named once.
    const retried = buildVerdict(
      run,
      judged({}, results),
      [...records, ...records.filter((r) => r.test === 7).map((r) => ({ ...r, retry: 1 }))],
      { ...context, selection: COMPLETE },
    );
    expect(retried.reason).toBe(v.reason);
  });

  test('the label is kept masked as every title shows it: a mobile number, a token= value (reader audit: the guard found it in run.label)', () => {
    const labelled = { ...run, label: 'acme-13812345678-monitor?token=abcdef123456', slug: 'x' };
    const v = buildVerdict(labelled, judged(), allPassed(), context);
    expect(v.run.label).toBe('acme-1**********-monitor?token=***');
  });

  test('skipped item tests are not listed (the run was not checked and failed once)', () => {
    const v = buildVerdict(
      run,
      judged({ status: 'error', failureKind: 'platform', reason: 'HTTP 403' }),
      [record('collection', 'failed'), record(3, 'skipped'), record(4, 'skipped')],
      context,
    );
    expect(v.items).toEqual([]);
    expect(v).toMatchObject({ status: 'error', failureKind: 'platform', reason: 'HTTP 403' });
  });

  test('a step keeps its first 50 mismatches and counts them all', () => {
    const rows = Array.from({ length: 120 }, (_, i) => row(`word${i}`, i % 3 === 0 ? 'pass' : 'fail'));
    const failing = rows.filter((r) => r.verdict === 'fail');
    const [step] = buildVerdict(run, judged({}, [result(6, 'fail', rows)]), [record(6, 'failed')], context)
      .items[0]!.steps;
    expect(step!.mismatches).toHaveLength(MISMATCHES_KEPT);
    expect(step!.mismatchCount).toBe(failing.length);
    expect(step!.mismatches.map((m) => m.key)).toEqual(failing.slice(0, 50).map((r) => r.key));
    expect(step!.name).toBe('6.1 · values');
  });

  test('spec 9.5.5 "the report notes tie swap": a passing row with passBy is kept, and the item names the clause', () => {
    const tie = {
      ...row('#2 name', 'pass', '蓝鲸'),
      passBy: 'tie swap (spec 9.5.5)',
      note: '蓝鲸 ↔ 极光 within 0.05',
    };
    const item = result(5, 'pass', [row('#1 name', 'pass'), tie]);
    item.steps[0]!.notes = ['1 tie swap within 0.05 (spec 9.5.5)'];
    const v = buildVerdict(run, judged({}, [item]), [record(5, 'passed')], context);
    expect(v.items[0]).toMatchObject({
      item: 5,
      verdict: 'pass',
      passBy: ['tie swap (spec 9.5.5) on 1 row'],
    });
    expect(v.items[0]!.steps[0]).toMatchObject({
      verdict: 'pass',
      mismatches: [],
      annotations: [
        { key: '#2 name', verdict: 'pass', passBy: 'tie swap (spec 9.5.5)', note: '蓝鲸 ↔ 极光 within 0.05' },
      ],
      notes: ['1 tie swap within 0.05 (spec 9.5.5)'],
    });
    // A clean pass carries neither.
    const clean = buildVerdict(
      run,
      judged({}, [result(3, 'pass', [row('a', 'pass')])]),
      [record(3, 'passed')],
      context,
    );
    expect(clean.items[0]!.passBy).toBeUndefined();
    expect(clean.items[0]!.steps[0]!.annotations).toBeUndefined();
  });

  test('an item passed by a clause says how many rows, as rows: one tie swap of two brands is two rows, and "tie swap ×2" read as two swaps beside the step\'s "1 tie swap" (reader audit of 2026-11-28)', () => {
    const swapped = (key: string) => ({ ...row(key, 'pass'), passBy: 'tie swap (spec 9.5.5)' });
    const rounded = { ...row('青松 · 豆包', 'pass'), passBy: '0.1 after rounding (spec 9.3.2)' };
    const item = result(5, 'pass', [swapped('#5 name'), swapped('#6 name'), rounded]);
    const v = buildVerdict(run, judged({}, [item]), [record(5, 'passed')], context);
    expect(v.items[0]!.passBy).toEqual([
      'tie swap (spec 9.5.5) on 2 rows',
      '0.1 after rounding (spec 9.3.2) on 1 row',
    ]);
  });

  test('a failing item names no special clause, even when some of its rows passed by one: pass* is a pass that holds only by a clause (README.md § Reporting)', () => {
    const tie = { ...row('#2 name', 'pass'), passBy: 'tie swap (spec 9.5.5)' };
    const item = result(5, 'fail', [tie, row('#3 name', 'fail')]);
    const v = buildVerdict(run, judged({}, [item]), [record(5, 'failed')], context);
    expect(v.items[0]).toMatchObject({ item: 5, verdict: 'fail' });
    expect(v.items[0]!.passBy).toBeUndefined();
  });

  test('notes, keys and values from data are escaped; the reason is capped', () => {
    const hostile = result(6, 'fail', [row('\u001b[2Jkey\n✓ 1 passed', 'fail', 'a\u202eb')]);
    hostile.notes = ['line one\rline two'];
    const reason = `GET x: ${'y'.repeat(5000)}`;
    const v = buildVerdict(
      run,
      judged({ reason, notes: ['bell\u0007'] }, [hostile]),
      [record(6, 'failed')],
      context,
    );
    const [mismatch] = v.items[0]!.steps[0]!.mismatches;
    expect(mismatch!.key).toBe('\\x1b[2Jkey\\x0a✓ 1 passed');
    expect(mismatch!.html).toBe('a\\u202eb');
    expect(v.items[0]!.notes).toEqual(['line one\\x0dline two']);
    expect(v.notes).toEqual(['bell\\x07']);
    expect(v.reason!.length).toBeLessThan(REASON_MAX + 40);
    expect(v.reason).toMatch(/… \(\d+ more characters\)$/);
  });

  test("no duration of the suite, its scripts or its setup is read on the wall clock: a name set from Date.now() is never subtracted from Date.now() again (the time audit mended five such places one by one; the job's second-stop second and the guard's seconds were left)", () => {
    expect(wallClockDurations(path.resolve(__dirname, '..', '..'))).toEqual([]);
  });

  test('a wall clock stepped back during a test (NTP, a resumed VM) gives no negative duration: the verdict is written (time audit of 2026-11-28)', () => {
    // The durations' clock is the monotonic one: an hour taken off Date.now, or put on it (which
    // made a run's picture budget negative), changes nothing.
    const wall = Date.now;
    const elapsed = stopwatch();
    try {
      for (const step of [-3_600_000, 3_600_000]) {
        Date.now = () => wall() + step;
        expect(elapsed(), `wall clock stepped ${step} ms`).toBeLessThan(60_000);
      }
    } finally {
      Date.now = wall;
    }
    // A clock that goes back reads 0, never less.
    const ticks = [5_000, 1_000];
    expect(stopwatch(() => ticks.shift()!)()).toBe(0);
    // A record kept with a negative time (read on the wall clock before) makes a valid verdict.
    const v = buildVerdict(
      run,
      judged({}, [result(3, 'pass')]),
      [
        { ...record('collection', 'passed'), durationMs: -1500 },
        { ...record(3, 'passed'), durationMs: -2 },
      ],
      context,
    );
    expect(verdictFileSchema.safeParse(v).success).toBe(true);
    expect([v.durationMs, v.items[0]!.durationMs]).toEqual([0, 0]);
  });

  test('failureKind only for a run not checked; URLs redacted; duration of its tests, the collection once; the night', () => {
    // The collection (1000 ms in the judged run) ran inside the first test, whose record holds it.
    const checked = buildVerdict(
      run,
      judged({ failureKind: 'input' }, [result(3, 'pass')]),
      [{ ...record('collection', 'passed'), durationMs: 1005 }, record(3, 'passed')],
      { ...context, night: { batchDate: '2025-11-17', describe: '2025-11-17 (yesterday in Asia/Shanghai)' } },
    );
    expect(checked.failureKind).toBeUndefined();
    expect(checked.run.htmlUrl).not.toContain('s3cr3t-value');
    expect(checked.run).toMatchObject({ batchIds: ['b1', 'b2'], companyId: 1001, profile: 'A' });
    expect(checked.durationMs).toBe(1015);
    expect(checked.night).toEqual({
      batchDate: '2025-11-17',
      describe: '2025-11-17 (yesterday in Asia/Shanghai)',
    });
    const needs = buildVerdict(
      run,
      judged({ status: 'needs-input', failureKind: 'needs-input', reason: 'set batchId' }),
      [],
      context,
    );
    expect(needs).toMatchObject({ status: 'needs-input', failureKind: 'needs-input', reason: 'set batchId' });
    expect(needs.items).toEqual([]);
  });

  test('README § Bounded outputs: 20,000 batch ids from the platform keep the verdict small, the count of those left out in its notes', () => {
    const long = `XH-${'L'.repeat(5000)}`;
    const ids = [long, ...Array.from({ length: 19_999 }, (_, i) => `XH-HIST-1001-20251117-${i}`)];
    const v = buildVerdict(run, judged({ run: { ...judged().run, batchIds: ids } }), [], context);
    expect(verdictFileSchema.parse(v)).toEqual(v);
    // What the platform answered no longer sets the file's size (it was 981 KB).
    expect(JSON.stringify(v).length).toBeLessThan(5_000);
    expect(BATCH_IDS_KEPT).toBeLessThanOrEqual(20);
    expect(v.run.batchIds).toHaveLength(BATCH_IDS_KEPT);
    // The first ids, in the batch list's order; each cut to a bounded length, saying so.
    expect(v.run.batchIds.slice(1)).toEqual(ids.slice(1, BATCH_IDS_KEPT));
    expect(v.run.batchIds[0]).toBe(
      `${long.slice(0, BATCH_ID_MAX)}… (${long.length - BATCH_ID_MAX} more characters)`,
    );
    for (const id of v.run.batchIds) expect(id.length).toBeLessThan(BATCH_ID_MAX + 30);
    expect(v.notes).toContain(
      `run.batchIds keeps the first ${BATCH_IDS_KEPT} of 20000 crawl batch ids the run used (19980 left out)`,
    );
  });

  test('a run of a few batch ids keeps them all, with no note about them', () => {
    const ids = Array.from({ length: BATCH_IDS_KEPT }, (_, i) => `XH-HIST-1001-20251117-${i}`);
    const v = buildVerdict(run, judged({ run: { ...judged().run, batchIds: ids } }), [], context);
    expect(v.run.batchIds).toEqual(ids);
    expect(v.notes).toEqual(judged().notes);
  });

  test('judge: a rule that throws fails its item with the reason, never passes (house rule: a check that cannot be evaluated fails); the other items are judged as usual', () => {
    const ctx = ruleContext();
    const evidence = {
      ...initialEvidence(run),
      status: 'checked' as const,
      parsed: { data: ctx.data, platform: ctx.platform },
    };
    evidence.run = { ...evidence.run, reportType: 'monitor' };
    const original = ITEM_RULES[8];
    ITEM_RULES[8] = () => {
      throw new Error('x');
    };
    try {
      const items = judge(evidence).items;
      expect(items[8]).toMatchObject({ verdict: 'fail', error: 'the rule could not be evaluated: x' });
      expect(items[7]?.verdict).toBe('pass');
    } finally {
      ITEM_RULES[8] = original;
    }
  });

  test('a rule that could not be evaluated fails its item with the reason, and its run is not checked: not FAIL, not exit 1, as Allure files it under "suite or environment problem" (review of issue 16)', () => {
    const broken: JudgedItem = {
      ...result(8, 'fail'),
      steps: [],
      error: 'the rule could not be evaluated: x',
    };
    const results = ALL.map((n) =>
      n === 8 ? broken : result(n, n === 5 ? 'fail' : 'pass', n === 5 ? [row('k', 'fail')] : []),
    );
    const records = allPassed().map((r) =>
      r.test === 8 || r.test === 5 ? { ...r, status: 'failed' as const } : r,
    );
    const v = buildVerdict(run, judged({}, results), records, { ...context, selection: COMPLETE });
    expect(v.items.find((i) => i.item === 8)).toMatchObject({
      item: 8,
      verdict: 'fail',
      notes: ['the rule could not be evaluated: x'],
    });
    expect(v.status).toBe('error');
    expect(v.failureKind).toBeUndefined();
    expect(v.reason).toBe(
      "item 8: the rule could not be evaluated: x: not a difference in the values but a fault of the suite's rule (report it with this run's DATA and answers), the run could not be checked whole",
    );
    expect(verdictFileSchema.parse(v)).toEqual(v);
    const night = summarize([v], COMPLETE);
    expect(night.exitCode).toBe(2);
    // Item 5 differed on its values: FAIL; item 8 compared nothing: not FAIL.
    expect(gridText(night).split('\n')[1]).toMatch(
      /^A-monitor +pass +pass +FAIL +pass +pass +· +pass +pass +pass +pass +error/,
    );
    // Selected alone (`--grep item8`), and retried (`--retries=1`: a record for each attempt), the same.
    const alone = buildVerdict(
      run,
      judged({}, [broken]),
      [record(8, 'failed'), { ...record(8, 'failed'), retry: 1 }],
      context,
    );
    expect(alone).toMatchObject({ status: 'error', reason: v.reason });
  });
});

test.describe('a checked run with selected items that never ran is error, interrupted (never checked and passing)', () => {
  const whole = { ...context, selection: COMPLETE };
  const finished = ALL.map((n) => result(n, 'pass'));

  test('--retries: items skipped after a failed attempt of the collection, then a retry that checked the run', () => {
    // Attempt 0 of the collection failed, its items were skipped (Playwright retries no skipped
    // test), the collection's retry checked the run: no item ever ran.
    const records = [
      { ...record('collection', 'passed'), retry: 1 },
      ...ALL.map((n) => record(n, 'skipped')),
    ];
    for (const ctx of [whole, context]) {
      const v = buildVerdict(run, judged({}, finished), records, ctx);
      expect(v).toMatchObject({ status: 'error', failureKind: 'interrupted', items: [] });
      expect(v.reason).toBe(
        "the run was checked, but items 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 did not run: skipped after a failed attempt of the run's collection (Playwright does not retry a skipped test); the items listed are those that ran",
      );
      expect(verdictFileSchema.parse(v)).toEqual(v);
    }
  });

  test('every item selected: an item with no record (its worker stopped during it) is named; the others keep their verdicts', () => {
    const records = [
      record('collection', 'passed'),
      ...ALL.filter((n) => n !== 7).map((n) => record(n, n === 9 ? 'failed' : 'passed')),
    ];
    const v = buildVerdict(run, judged({}, finished), records, whole);
    expect(v).toMatchObject({ status: 'error', failureKind: 'interrupted' });
    expect(v.reason).toBe(
      'the run was checked, but item 7 left no result: the test never ended (its worker process stopped during it); the items listed are those that ran',
    );
    expect(v.items.map((i) => `${i.item}:${i.verdict}`)).toEqual([
      '3:pass',
      '4:pass',
      '5:pass',
      '6:pass',
      '8:pass',
      '9:fail',
      '10:pass',
      '11:pass',
      '12:pass',
    ]);
  });

  test('both at once are both named; a partial selection (--grep item5) lists only what it selected, and is checked', () => {
    const v = buildVerdict(
      run,
      judged({}, finished),
      [record('collection', 'passed'), record(3, 'skipped'), record(4, 'passed')],
      whole,
    );
    expect(v.reason).toContain('item 3 did not run: skipped after a failed attempt');
    expect(v.reason).toContain('items 5, 6, 7, 8, 9, 10, 11, 12 left no result');
    expect(v.items.map((i) => i.item)).toEqual([4]);
    const grep = buildVerdict(run, judged({}, finished), [record(5, 'passed')], {
      ...context,
      selection: { filters: ['--grep item5'], shard: null, complete: false },
    });
    expect(grep).toMatchObject({ status: 'checked', items: [{ item: 5, verdict: 'pass' }] });
    expect(grep.failureKind).toBeUndefined();
  });

  test('a run of every item that ran them all stays checked', () => {
    const v = buildVerdict(run, judged({}, finished), allPassed(), whole);
    expect(v.status).toBe('checked');
    expect(v.reason).toBeUndefined();
    expect(v.items).toHaveLength(10);
  });
});

test.describe('skipsNotChecked (fixtures/check.ts): an item test of a run not checked, its failure shown once', () => {
  const error = { status: 'error' } as const;
  const first = { retry: 0 };

  test('skipped when no retry is to come: without retries (one worker restart per broken run), or retries used up', () => {
    expect(skipsNotChecked(error, first, { shown: true, pending: () => false })).toBe(true);
    const failed = [{ ...record('collection', 'failed'), retry: 1 }];
    expect(retryPending(failed, 0)).toBe(false);
    expect(retryPending(failed, 1)).toBe(false);
    // Not before the failure was shown, never on a retry (a failed then skipped test is "flaky").
    expect(skipsNotChecked(error, first, { shown: false, pending: () => false })).toBe(false);
    expect(skipsNotChecked(error, { retry: 1 }, { shown: true, pending: () => false })).toBe(false);
  });

  test('failed, so that Playwright retries it, while a retry of the failed collection is to come (retryStrategy isolated)', () => {
    const records = [record('collection', 'failed'), record(3, 'skipped'), record(4, 'running')];
    expect(retryPending(records, 1)).toBe(true);
    expect(retryPending([{ ...record(5, 'timedOut'), retry: 1 }], 2)).toBe(true);
    expect(skipsNotChecked(error, first, { shown: true, pending: () => true })).toBe(false);
    // A retry does not collect a needs-input run again: failing would only cost restarts.
    expect(skipsNotChecked({ status: 'needs-input' }, first, { shown: true, pending: () => true })).toBe(
      true,
    );
  });
});

test.describe('a run the stop of the invocation cut short (README.md § Run it nightly in CI)', () => {
  const stopped = {
    ...context,
    selection: COMPLETE,
    interrupted: 'the invocation was interrupted by SIGTERM',
  };
  const finished = ALL.map((n) => result(n, 'pass'));

  test('a run that finished before the stop keeps its verdict', () => {
    const v = buildVerdict(run, judged({}, finished), allPassed(), stopped);
    expect(v.status).toBe('checked');
    expect(v.items).toHaveLength(10);
  });

  test('a run in flight says it was interrupted, lists the items that ended, never as a failure of values', () => {
    const records = [
      record('collection', 'passed'),
      record(3, 'passed'),
      record(4, 'passed'),
      record(5, 'running'),
    ];
    const v = buildVerdict(run, judged({}, finished), records, stopped);
    expect(v).toMatchObject({ status: 'error', failureKind: 'interrupted' });
    expect(v.reason).toBe(
      'the invocation was interrupted by SIGTERM while item 5 ran: items 5, 6, 7, 8, 9, 10, 11, 12 did not run (the items in the verdict are those that finished)',
    );
    expect(v.items.map((i) => [i.item, i.verdict])).toEqual([
      [3, 'pass'],
      [4, 'pass'],
    ]);
  });

  test('a collection in flight (even one that ended in an error when the platform went away) is interrupted', () => {
    const v = buildVerdict(
      run,
      judged({ status: 'error', failureKind: 'platform', reason: 'ECONNREFUSED' }),
      [record('collection', 'running')],
      stopped,
    );
    expect(v).toMatchObject({ status: 'error', failureKind: 'interrupted' });
    expect(v.reason).toBe(
      'the invocation was interrupted by SIGTERM while its collection ran (its collection had ended: ECONNREFUSED)',
    );
    expect(buildVerdict(run, undefined, [record('collection', 'running')], stopped).reason).toBe(
      'the invocation was interrupted by SIGTERM while its collection ran',
    );
    expect(buildVerdict(run, undefined, [], stopped).reason).toBe(
      'the invocation was interrupted by SIGTERM before this run started',
    );
  });

  test('a collection the stop closed the browser under (ended, its record failed) is interrupted, not an input error', () => {
    const closed = judged({
      status: 'error',
      failureKind: 'input',
      reason: 'report page …: page.evaluate: Target page, context or browser has been closed',
    });
    const records = [record('collection', 'failed')];
    expect(buildVerdict(run, closed, records, { ...stopped, collectionCutShort: true })).toMatchObject({
      status: 'error',
      failureKind: 'interrupted',
      reason:
        'the invocation was interrupted by SIGTERM while its collection ran (it ended: report page …: page.evaluate: Target page, context or browser has been closed)',
    });
    // Not cut short (it ended long before the stop): its own failure stands.
    expect(buildVerdict(run, closed, records, stopped)).toMatchObject({ failureKind: 'input' });
  });

  test('what a stop of the process group makes a collection say counts as cut short; a failure of its own does not', () => {
    // Chromium is stopped with the runner: a page closed, a browser gone, a navigation it aborted.
    for (const reason of [
      'report page …: page.evaluate: Target page, context or browser has been closed',
      'report page …: browser has disconnected',
      'report page …: page.goto: Navigation failed because page crashed!',
      'report page …: Target crashed',
      // The signals self-test with both cores busy (2026-11-26): the run in flight ended so.
      'report page http://127.0.0.1:4183/reports/101402/monitor/2025-11-17?companyId=1001&topic=T101402: report page did not load: page.goto: net::ERR_ABORTED at http://127.0.0.1:4183/reports/101402/monitor/2025-11-17',
    ])
      expect(closedUnderIt(reason), reason).toBe(true);
    for (const reason of [
      'GET /api/geo-monitor/metrics/l1 (table=snapshot): HTTP 500 after 3 attempts (2 retries with backoff)',
      'report page …: report page did not load: page.goto: net::ERR_CONNECTION_REFUSED at http://127.0.0.1:9/',
      'report page …: DATA did not finish within 30000 ms (L1_REQUEST_TIMEOUT_MS)',
    ])
      expect(closedUnderIt(reason), reason).toBe(false);
  });

  test('a run never started has the facts its URLs give (docs/contract.md §7), and is Profile B by its host or company id, as the Allure result made for it (audit of 2026-11-28: company, project, type and date were null, the profile A)', () => {
    const stopped = { ...context, interrupted: 'the invocation was interrupted by SIGTERM' };
    expect(buildVerdict(run, undefined, [], stopped).run).toMatchObject({
      companyId: 1001,
      projectId: '101101',
      reportType: 'monitor',
      batchDate: '2025-11-17',
      profile: 'A',
    });
    expect(buildVerdict(run, undefined, [], { ...stopped, profileB: { companyId: 1001 } }).run.profile).toBe(
      'B',
    );
    expect(
      buildVerdict(run, undefined, [], { ...stopped, profileB: { host: '127.0.0.1' } }).run.profile,
    ).toBe('B');
    // Near miss: Profile B by its DATA's line alone is not known before the report is read.
    expect(buildVerdict(run, undefined, [], { ...stopped, profileB: { groupName: 'G' } }).run.profile).toBe(
      'A',
    );
    // What is read wins over the URLs: a judged run's facts are its DATA's.
    const read = judged();
    expect(buildVerdict(run, read, [], { ...stopped, profileB: { companyId: 1001 } }).run).toMatchObject({
      profile: read.run.profile,
      companyId: read.run.companyId,
    });
    // docs/contract.md §1.1, companyId: "`htmlUrl` query `companyId` / `company_id`; else the run's
    // `companyId`": a run that gives it beside a URL without one has it, and its profile by it.
    const given = {
      ...run,
      input: {
        htmlUrl: 'http://127.0.0.1/reports/101101/monitor/2025-11-17',
        platformUrl: run.input.platformUrl,
        companyId: 3100,
      },
    };
    expect(buildVerdict(given, undefined, [], stopped).run.companyId).toBe(3100);
    expect(
      buildVerdict(given, undefined, [], { ...stopped, profileB: { companyId: 3100 } }).run.profile,
    ).toBe('B');
    // URLs that say nothing: nothing is made up.
    const bad = { ...run, input: { htmlUrl: 'not a url', platformUrl: 'x' } };
    expect(buildVerdict(bad, undefined, [], stopped).run).toMatchObject({
      companyId: null,
      projectId: null,
      reportType: null,
      batchDate: null,
      profile: 'A',
    });
  });

  test('without a stop, a run that was never collected is an input error of this invocation', () => {
    expect(buildVerdict(run, undefined, [], context)).toMatchObject({
      status: 'error',
      failureKind: 'input',
      reason: 'the run was not collected in this invocation (its tests did not run)',
    });
  });

  test('a test that ended before the collection did is named with its error, not "its tests did not run" (audit of --timeout 1); an interrupted one is said to be interrupted, not to have ended or not run', () => {
    const timedOut: TestRecord = {
      test: 5,
      status: 'timedOut',
      durationMs: 3,
      error: 'Test timeout of 1ms exceeded while setting up "judged".',
    };
    const v = buildVerdict(run, undefined, [timedOut], context);
    expect(v).toMatchObject({
      status: 'error',
      failureKind: 'input',
      reason:
        'the run was not collected: item 5 ended (timedOut) before its collection did: Test timeout of 1ms exceeded while setting up "judged".',
    });
    expect(v.items.map((i) => `${i.item}:${i.verdict}`)).toEqual(['5:fail']);
    // docs/contract.md §7: "A run not checked lists the items whose test failed with its reason":
    // an item with no judged result keeps its test's error as its note.
    expect(v.items[0]!.notes).toContain(timedOut.error);
    const interrupted: TestRecord = { test: 'collection', status: 'interrupted', durationMs: 9 };
    expect(buildVerdict(run, undefined, [interrupted], context)).toMatchObject({
      failureKind: 'interrupted',
      reason: 'the run was not collected: its collection test was interrupted before its collection ended',
    });
  });
});

test.describe('runVerdict: a collection that ended in error as the stop began is interrupted (docs/decisions.md § Signals)', () => {
  const SIGTERM = 'the invocation was interrupted by SIGTERM';
  const CLOSED = 'report page …: page.evaluate: Target page, context or browser has been closed';
  const REFUSED = 'GET /api/geo-monitor/metrics/l1 (table=snapshot): HTTP 500 after 3 attempts';
  /** The stop's mark, as file times go (ms). */
  const MARKED = 1_800_000_000_000;

  /** An invocation of every item with run A-monitor in it, its folder holding `judgedRun` if given. */
  function invocationOf(judgedRun?: JudgedRun): { invocation: Invocation; folder: string } {
    const dir = tempDir('run-verdict');
    const invocation: Invocation = {
      id: 'night-1',
      startedAt: '2025-11-18T02:00:00.000Z',
      dir,
      auth: path.join(dir, 'auth'),
      runs: path.join(dir, 'runs'),
      selection: COMPLETE,
      outputs: { verdicts: path.join(dir, 'verdicts'), allureResults: '', partial: false },
    };
    const folder = runFolder(invocation.runs, run.slug);
    fs.mkdirSync(folder, { recursive: true });
    if (judgedRun) writeJudged(folder, judgedRun);
    return { invocation, folder };
  }
  const at = (file: string, ms: number) => fs.utimesSync(file, ms / 1000, ms / 1000);

  /**
   * The verdict of a run whose collection failed with `reason`, `before` ms before the stop was
   * marked (a negative `before`: after it); with no `before`, the stop left no mark (Playwright's own).
   */
  function stoppedAfter(reason: string, before?: number) {
    const { invocation, folder } = invocationOf(judged({ status: 'error', failureKind: 'platform', reason }));
    writeTestRecord(folder, { test: 'collection', status: 'failed', durationMs: 10 });
    at(path.join(folder, 'judged.json'), MARKED - (before ?? 0));
    if (before !== undefined) {
      const mark = path.join(invocation.dir, INTERRUPTED_MARK);
      fs.writeFileSync(mark, JSON.stringify({ signal: 'SIGTERM' }));
      at(mark, MARKED);
    }
    return runVerdict(run, invocation, {}, SIGTERM);
  }

  test('the page or browser gone under it within 10 s before the mark: interrupted, with what its collection said', () => {
    for (const before of [5_000, 10_000])
      expect(stoppedAfter(CLOSED, before), `${before} ms before`).toMatchObject({
        status: 'error',
        failureKind: 'interrupted',
        reason: `${SIGTERM} while its collection ran (it ended: ${CLOSED})`,
      });
    // Longer before the stop, it was the run's own failure.
    expect(stoppedAfter(CLOSED, 60_000)).toMatchObject({ failureKind: 'platform', reason: CLOSED });
  });

  test("any error at or after the mark is the stop's; one of its own before the mark keeps its kind", () => {
    // The same stamp (file times tick in steps) counts as after the mark.
    for (const before of [-2_000, 0])
      expect(stoppedAfter(REFUSED, before), `${before} ms before`).toMatchObject({
        failureKind: 'interrupted',
      });
    expect(stoppedAfter(REFUSED, 5_000)).toMatchObject({ failureKind: 'platform', reason: REFUSED });
  });

  test('a stop that left no mark (-x, --global-timeout) makes no failed collection interrupted', () => {
    expect(stoppedAfter(CLOSED)).toMatchObject({ failureKind: 'platform', reason: CLOSED });
  });

  test('a run the stop came before is interrupted, saying so', () => {
    const { invocation } = invocationOf();
    expect(runVerdict(run, invocation, {}, SIGTERM)).toMatchObject({
      status: 'error',
      failureKind: 'interrupted',
      reason: `${SIGTERM} before this run started`,
    });
  });
});

/** The counts of an index.json as a night of two runs with one failing item writes them. */
const INDEX_COUNTS = {
  runs: 2,
  checked: 2,
  passing: 1,
  failing: 1,
  failingItems: 1,
  notChecked: 0,
  byKind: {},
  annotatedPasses: 0,
};
/** That night's index.json with `counts`. */
const indexWith = (counts: Record<string, unknown>) => ({
  generatedAt: '2025-11-17T02:00:00.000Z',
  suite: { name: 'l1-verify', version: '1.0.0' },
  selection: { filters: [], shard: null, complete: true },
  counts,
  exitCode: 1,
  runs: [
    { label: 'a', file: 'a.json', status: 'checked', items: { '3': 'pass' } },
    { label: 'b', file: 'b.json', status: 'checked', items: { '3': 'fail' } },
  ],
});

/**
 * docs/contract.md §7 `index.json`: an index written before the night summary counted `noItems` and
 * `failingItemsNotChecked` (both "absent in index files written before it was counted") is still
 * one that `npm run merge` and `npm run report` read (mutation sweep of lib/schema, 2026-11-28: the
 * two fields made required survived every unit test, and a merge would then have refused an older
 * shard's index as not an index).
 */
test('an index.json written before noItems and failingItemsNotChecked were counted still validates; near miss: one whose counts lack a field always written does not', () => {
  expect(verdictIndexSchema.safeParse(indexWith(INDEX_COUNTS)).success).toBe(true);
  const { failingItems: _dropped, ...withoutFailingItems } = INDEX_COUNTS;
  expect(verdictIndexSchema.safeParse(indexWith(withoutFailingItems)).success).toBe(false);
});

test('an index.json whose counts are not whole numbers of 0 or more is refused naming the field (schema sweep of 2026-11-28: -1 and 2.5 were valid); near miss: 0 is a count', () => {
  const refused = (edit: Record<string, unknown>) =>
    verdictIndexSchema.safeParse(indexWith({ ...INDEX_COUNTS, ...edit })).error?.issues[0]?.path;
  expect(refused({ failing: 0, noItems: 0 })).toBeUndefined();
  expect(refused({ failing: -1 })).toEqual(['counts', 'failing']);
  expect(refused({ runs: 2.5 })).toEqual(['counts', 'runs']);
  expect(refused({ noItems: -1 })).toEqual(['counts', 'noItems']);
  expect(refused({ failingItemsNotChecked: 0.5 })).toEqual(['counts', 'failingItemsNotChecked']);
  expect(refused({ byKind: { platform: -2 } })).toEqual(['counts', 'byKind', 'platform']);
  expect(refused({ annotatedPasses: -1 })).toEqual(['counts', 'annotatedPasses']);
});

test('a verdict file whose durations are below 0 or whose step counts its mismatching rows below 0 or in halves is refused naming the field (schema sweep of 2026-11-28: without their bounds every such file was valid); near miss: 0', () => {
  const failing = ALL.map((n) => result(n, n === 5 ? 'fail' : 'pass', n === 5 ? [row('k', 'fail')] : []));
  const v = buildVerdict(
    run,
    judged({}, failing),
    allPassed().map((r) => (r.test === 5 ? { ...r, status: 'failed' as const } : r)),
    { ...context, selection: COMPLETE },
  );
  const five = v.items.findIndex((i) => i.item === 5);
  expect(v.items[five]!.steps[0]!.mismatchCount).toBe(1);
  const path = (file: unknown) => verdictFileSchema.safeParse(file).error?.issues[0]?.path;
  const withItem = (edit: Record<string, unknown>) => ({
    ...v,
    items: v.items.map((i, n) => (n === five ? { ...i, ...edit } : i)),
  });
  const withStep = (mismatchCount: number) =>
    withItem({ steps: [{ ...v.items[five]!.steps[0]!, mismatchCount }] });
  expect(path({ ...v, durationMs: 0 })).toBeUndefined();
  expect(path(withItem({ durationMs: 0 }))).toBeUndefined();
  expect(path(withStep(0))).toBeUndefined();
  expect(path({ ...v, durationMs: -1 })).toEqual(['durationMs']);
  expect(path(withItem({ durationMs: -1 }))).toEqual(['items', five, 'durationMs']);
  expect(path(withStep(-1))).toEqual(['items', five, 'steps', 0, 'mismatchCount']);
  expect(path(withStep(1.5))).toEqual(['items', five, 'steps', 0, 'mismatchCount']);
});
