import { verdictFileSchema, type Selection, type VerdictFile } from '../../../lib/schema/verdict';

export const COMPLETE: Selection = { filters: [], shard: null, complete: true };

/**
 * A verdict file that validates with the schema (docs/contract.md §7), for the report tests:
 * `items` maps item number → verdict, each item with one step of that verdict.
 */
export function fakeVerdict(
  label: string,
  items: Record<number, 'pass' | 'fail'> = {},
  extra: Partial<VerdictFile> = {},
): VerdictFile {
  return verdictFileSchema.parse({
    run: {
      label,
      htmlUrl: 'http://127.0.0.1/report',
      platformUrl: 'http://127.0.0.1/platform',
      companyId: 1001,
      projectId: '101101',
      reportType: 'monitor',
      batchDate: '2025-11-17',
      profile: 'A',
      batchIds: ['b1'],
      dataSource: 'html',
      level: 'brand',
    },
    status: 'checked',
    notes: [],
    items: Object.entries(items).map(([item, v]) => ({
      item: Number(item),
      verdict: v,
      steps: [{ name: `${item}.1 values`, verdict: v, mismatches: [], mismatchCount: 0 }],
      notes: [],
    })),
    generatedAt: '2025-11-18T02:00:00.000Z',
    suite: { name: 'l1-verify', version: '0.1.0' },
    selection: COMPLETE,
    durationMs: 1200,
    ...extra,
  });
}
