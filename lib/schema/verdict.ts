import { z } from 'zod';

/**
 * The verdict file of one run (docs/contract.md §7), as one schema: the writer, the merge command,
 * the summaries and the self-tests all read and write it through this file. Fields beyond the
 * contract (`generatedAt`, `suite`, `selection`, `durationMs`, `mismatchCount`) are additions the
 * contract allows ("besides"), for machines reading many runs.
 */

const cell = z.union([z.string(), z.number(), z.null()]);

export const mismatchSchema = z.object({
  key: z.string(),
  html: cell,
  platform: cell,
  gap: z.number().nullable(),
  tolerance: z.string(),
  verdict: z.literal('fail'),
  note: z.string().optional(),
});

/** A row that passed only by a special clause of the spec (a tie swap, 7.3.5, 9.3.4, …). */
export const annotationSchema = mismatchSchema.extend({
  verdict: z.literal('pass'),
  /** The clause the pass depends on, e.g. `tie swap (spec 9.5.5)`. */
  passBy: z.string(),
});

export const verdictStepSchema = z.object({
  name: z.string(),
  verdict: z.enum(['pass', 'fail']),
  /** The first mismatches of the step (capped: see `mismatchCount`). */
  mismatches: z.array(mismatchSchema),
  /** How many rows of the step failed in all; more than `mismatches.length` when capped. */
  mismatchCount: z.number().int().nonnegative(),
  /** Rows that passed only by a special clause, so a pass by tolerance reads differently from an exact one. */
  annotations: z.array(annotationSchema).optional(),
  notes: z.array(z.string()).optional(),
});

export const verdictItemSchema = z.object({
  item: z.number().int().min(3).max(12),
  verdict: z.enum(['pass', 'fail']),
  steps: z.array(verdictStepSchema),
  notes: z.array(z.string()),
  /** The special clauses this item passed by, with counts: `tie swap (spec 9.5.5) ×1`. */
  passBy: z.array(z.string()).optional(),
  durationMs: z.number().nonnegative().optional(),
});

export const runStatusSchema = z.enum(['checked', 'needs-input', 'error']);

/**
 * Where a run that was not checked went wrong: the kinds a reviewer acts on differently. `input`:
 * the run's URLs or data; `platform`: an endpoint or page; `needs-input`: someone must choose (spec
 * 8.1.1); `configuration`: the suite's settings lack something (credentials, Profile B brand code,
 * a trusted origin); `interrupted`: the invocation was stopped (SIGTERM, SIGINT, max failures)
 * before the run finished.
 */
export const failureKindSchema = z.enum(['input', 'platform', 'needs-input', 'configuration', 'interrupted']);

export const selectionSchema = z.object({
  /** The command-line filters of the invocation (`--grep item5`, `--last-failed`, file filters). */
  filters: z.array(z.string()),
  /** `i/n` when the invocation was one shard of n. */
  shard: z.string().nullable(),
  /** True when no filter applied: every item of every run of this shard was selected. */
  complete: z.boolean(),
});

export const verdictFileSchema = z.object({
  run: z.object({
    label: z.string(),
    htmlUrl: z.string(),
    platformUrl: z.string(),
    companyId: z.number().nullable(),
    projectId: z.string().nullable(),
    reportType: z.enum(['monitor', 'diagnosis']).nullable(),
    batchDate: z.string().nullable(),
    profile: z.enum(['A', 'B']),
    batchIds: z.array(z.string()),
    dataSource: z.enum(['html', 'cal_data_json']),
    level: z.enum(['brand', 'product']),
  }),
  status: runStatusSchema,
  reason: z.string().optional(),
  /** For a run not checked: input (URL, DATA, cal_data_json, credentials), platform, or needs-input. */
  failureKind: failureKindSchema.optional(),
  notes: z.array(z.string()),
  items: z.array(verdictItemSchema),
  generatedAt: z.string(),
  suite: z.object({ name: z.string(), version: z.string() }),
  selection: selectionSchema,
  /** Collection plus every item test of the run, in this invocation. */
  durationMs: z.number().nonnegative(),
  /** The batch date the runs' placeholders took, and how it was chosen (README.md § Run it nightly in CI). */
  night: z.object({ batchDate: z.string(), describe: z.string() }).optional(),
});

export type Mismatch = z.output<typeof mismatchSchema>;
export type VerdictStep = z.output<typeof verdictStepSchema>;
export type VerdictItem = z.output<typeof verdictItemSchema>;
export type VerdictFile = z.output<typeof verdictFileSchema>;
export type RunStatus = z.output<typeof runStatusSchema>;
export type FailureKind = z.output<typeof failureKindSchema>;
export type Selection = z.output<typeof selectionSchema>;

/** A number of runs or items. */
const count = z.number().int().nonnegative();

/** `reports/verdicts/index.json`: every run of the invocation (or of a merge) at a glance. */
export const verdictIndexSchema = z.object({
  generatedAt: z.string(),
  suite: z.object({ name: z.string(), version: z.string() }),
  selection: selectionSchema,
  night: z.object({ batchDate: z.string(), describe: z.string() }).optional(),
  /**
   * The night summary's counts (lib/report/night.ts): whole numbers, none below 0. An index whose
   * counts are not (edited by hand, written by another tool) is refused naming the field, as one
   * with any other field of the wrong type is (schema sweep of 2026-11-28: -1 and 2.5 were valid).
   */
  counts: z
    .object({
      runs: count,
      checked: count,
      passing: count,
      /** Absent in index files written before it was counted. */
      noItems: count.optional(),
      failing: count,
      failingItems: count,
      notChecked: count,
      /** Absent in index files written before it was counted. */
      failingItemsNotChecked: count.optional(),
      byKind: z.record(z.string(), count),
      annotatedPasses: count,
    })
    .optional(),
  /** The exit code of the checks: 0 all passing, 1 values differ, 2 a run not checked. */
  exitCode: z.union([z.literal(0), z.literal(1), z.literal(2)]).optional(),
  /**
   * Why the invocation stopped before every test ended (a signal, `-x`), when it did: the one fact
   * of the night its verdicts cannot give back (a partial invocation lists no run it never reached).
   */
  stopped: z.string().optional(),
  runs: z.array(
    z.object({
      label: z.string(),
      file: z.string(),
      status: runStatusSchema,
      reason: z.string().optional(),
      failureKind: failureKindSchema.optional(),
      /** item number → verdict, for the items that ran. */
      items: z.record(z.string(), z.enum(['pass', 'fail'])),
    }),
  ),
});
export type VerdictIndex = z.output<typeof verdictIndexSchema>;

/** Files of a verdict folder that are not per-run verdicts. */
export const VERDICT_FOLDER_EXTRAS = ['index.json', 'summary.md', 'junit.xml'] as const;

/**
 * Playwright's record of a night's failed tests (its `.last-run.json`: `{status, failedTests}`),
 * kept in a CI night's verdict folders so that it travels with their artifacts: each shard's
 * (scripts/ci/shard.sh copies it in), and the merged night's, the union of the shards'
 * (scripts/merge.ts). `--last-failed` reads the night's verdict folder's when the checkout has
 * none of its own (tests/setup/cli.ts). Not a verdict, not derived from the verdicts.
 */
export const VERDICT_FOLDER_LAST_RUN = 'last-run.json';

/** Every file of a verdict folder that is not a run's verdict: the night files and the last-run record. */
export const VERDICT_FOLDER_NOT_VERDICTS: readonly string[] = [
  ...VERDICT_FOLDER_EXTRAS,
  VERDICT_FOLDER_LAST_RUN,
];
