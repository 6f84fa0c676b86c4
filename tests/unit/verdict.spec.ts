import { expect, test } from '@playwright/test';
import { initialEvidence, type Evidence } from '../../lib/platform/evidence';
import type { ItemRecord } from '../../lib/report/records';
import { buildVerdict, cappedResult, MISMATCHES_KEPT, REASON_MAX } from '../../lib/report/verdict';
import type { ConfiguredRun } from '../../lib/run/inputs';
import type { ComparisonRow, ItemNumber, ItemResult } from '../../lib/rules/types';
import { verdictFileSchema } from '../../lib/schema/verdict';

/** buildVerdict: the verdict file of one run (docs/contract.md §7), from its evidence and its item records. */

const run: ConfiguredRun = {
  label: 'A-monitor',
  slug: 'A-monitor',
  input: {
    htmlUrl: 'http://127.0.0.1/reports/101101/monitor/2025-11-17?companyId=1001&token=s3cr3t-value',
    platformUrl: 'http://127.0.0.1/platform/projects/101101/overview',
  },
};

function evidence(extra: Partial<Evidence> = {}): Evidence {
  const e = initialEvidence(run);
  return {
    ...e,
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
    durationMs: 1000,
    ...extra,
  } as Evidence;
}

function row(key: string, verdict: 'pass' | 'fail', html: ComparisonRow['html'] = 1): ComparisonRow {
  return { key, html, platform: 2, gap: 1, tolerance: '≤ 0.1', verdict };
}

function result(item: ItemNumber, verdict: 'pass' | 'fail', rows: ComparisonRow[] = []): ItemResult {
  return {
    item,
    title: `item ${item}`,
    verdict,
    steps: [{ id: `${item}.1`, name: 'values', verdict, rows, notes: [] }],
    notes: [],
  };
}

function record(item: ItemNumber, status: ItemRecord['status'], r?: ItemResult): ItemRecord {
  return { item, status, ...(r ? { result: r } : {}), durationMs: 10 };
}

const context = {
  selection: { filters: [], shard: null, complete: true },
  suite: { name: 'l1-verify', version: '0.1.0' },
  generatedAt: '2025-11-18T02:00:00.000Z',
};

test.describe('buildVerdict (docs/contract.md §7)', () => {
  test("each item's verdict is its test's status: passed → pass, anything else → fail, saying why", () => {
    const v = buildVerdict(
      run,
      evidence(),
      [
        record(5, 'failed', result(5, 'fail', [row('k', 'fail')])),
        record(3, 'passed', result(3, 'pass')),
        record(4, 'timedOut'),
        record(6, 'passed', result(6, 'fail', [row('w', 'fail')])),
        record(7, 'failed', result(7, 'pass')),
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

  test('skipped item tests are not listed (the run was not checked and failed once)', () => {
    const v = buildVerdict(
      run,
      evidence({ status: 'error', failureKind: 'platform', reason: 'HTTP 403' }),
      [record(3, 'failed'), record(4, 'skipped'), record(5, 'skipped')],
      context,
    );
    expect(v.items.map((i) => i.item)).toEqual([3]);
  });

  test('a step keeps its first 50 mismatches and counts them all, also from a capped result', () => {
    const rows = Array.from({ length: 120 }, (_, i) => row(`word${i}`, i % 3 === 0 ? 'pass' : 'fail'));
    const failing = rows.filter((r) => r.verdict === 'fail');
    for (const r of [result(6, 'fail', rows), cappedResult(result(6, 'fail', rows))]) {
      const [step] = buildVerdict(run, evidence(), [record(6, 'failed', r)], context).items[0]!.steps;
      expect(step!.mismatches).toHaveLength(MISMATCHES_KEPT);
      expect(step!.mismatchCount).toBe(failing.length);
      expect(step!.mismatches.map((m) => m.key)).toEqual(failing.slice(0, 50).map((r) => r.key));
      expect(step!.name).toBe('6.1 · values');
    }
  });

  test('notes, keys and values from data are escaped; the reason is capped', () => {
    const hostile = result(6, 'fail', [row('\u001b[2Jkey\n✓ 1 passed', 'fail', 'a\u202eb')]);
    hostile.notes = ['line one\rline two'];
    const reason = `GET x: ${'y'.repeat(5000)}`;
    const v = buildVerdict(
      run,
      evidence({ status: 'error', failureKind: 'platform', reason, notes: ['bell\u0007'] }),
      [record(6, 'failed', hostile)],
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

  test('failureKind only for a run not checked; URLs redacted; duration of collection and items', () => {
    const checked = buildVerdict(
      run,
      evidence({ failureKind: 'input' }),
      [record(3, 'passed', result(3, 'pass'))],
      context,
    );
    expect(checked.failureKind).toBeUndefined();
    expect(checked.run.htmlUrl).not.toContain('s3cr3t-value');
    expect(checked.run).toMatchObject({ batchIds: ['b1', 'b2'], companyId: 1001, profile: 'A' });
    expect(checked.durationMs).toBe(1010);
    const needs = buildVerdict(
      run,
      evidence({ status: 'needs-input', failureKind: 'needs-input', reason: 'set batchId' }),
      [],
      context,
    );
    expect(needs).toMatchObject({ status: 'needs-input', failureKind: 'needs-input', reason: 'set batchId' });
    expect(needs.items).toEqual([]);
  });
});
