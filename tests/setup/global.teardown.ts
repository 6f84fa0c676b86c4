import fs from 'node:fs';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { readEvidence, initialEvidence } from '../../lib/platform/evidence';
import { INVOCATION, settings } from '../../lib/run/config';
import { selectionFromArgv } from '../../lib/run/selection';
import { allureResultsDir, releaseOutputs, verdictsDir } from '../../lib/report/outputs';
import { readRecords } from '../../lib/report/records';
import { summaryGrid } from '../../lib/report/summary';
import { buildVerdict } from '../../lib/report/verdict';
import { writeVerdictFolder, type VerdictEntry } from '../../lib/report/verdict-folder';
import { suiteInfo } from '../../lib/report/suite';
import { writeAllureEnvironment } from '../../lib/report/allure/environment';
import { writeAllureSummary } from '../../lib/report/allure/summary';
import { chromiumVersion } from '../../lib/run/browser';

/**
 * Runs at the end of every invocation that ran tests, whatever `--reporter` says: builds each run's
 * verdict file (docs/contract.md §7) from its evidence and the records its item tests left, writes the
 * folder (verdicts, index.json, summary.md, junit.xml), prints the run × item grid, then removes the
 * invocation's sessions and evidence unless L1_KEEP_STATE=1.
 */
export default function globalTeardown(config: FullConfig): void {
  if (!fs.existsSync(path.join(INVOCATION.root, 'claimed'))) {
    process.stdout.write('\nL1 verdicts: none written (the invocation stopped before its tests ran)\n');
    return;
  }
  const selection = selectionFromArgv(process.argv, config.shard);
  const context = { selection, suite: suiteInfo(), generatedAt: new Date().toISOString() };
  const entries: VerdictEntry[] = [];
  for (const run of settings().runs) {
    const evidence = readEvidence(INVOCATION.evidence, run.slug);
    const records = readRecords(INVOCATION.records, run.slug);
    // A run none of whose tests ran here belongs to another shard or was filtered out.
    if (!evidence && records.length === 0 && !(selection.complete && !selection.shard)) continue;
    const known = evidence ?? {
      ...initialEvidence(run),
      reason: 'the run was not collected in this invocation (interrupted, or its tests did not run)',
    };
    entries.push({ file: `${run.slug}.json`, verdict: buildVerdict(run, known, records, context) });
  }
  const dir = verdictsDir();
  writeVerdictFolder(dir, entries, selection);
  const scope = selection.complete
    ? ''
    : ` · partial: ${selection.filters.join(' ')} (verdicts list the items that ran)`;
  const shard = selection.shard ? ` · shard ${selection.shard}` : '';
  process.stdout.write(
    `\nL1 verdicts (${dir}${shard}${scope}):\n${summaryGrid(entries.map((e) => e.verdict))}\n\n`,
  );
  // Allure (when its reporter ran): the environment block and the run × item grid in the report.
  const results = allureResultsDir();
  if (fs.existsSync(results) && fs.readdirSync(results).some((f) => f.endsWith('-result.json'))) {
    const { profileB } = settings();
    writeAllureEnvironment(results, {
      suite: `${context.suite.name} ${context.suite.version}`,
      runs: process.env.L1_RUNS ?? (process.env.L1_HTML_URL ? 'L1_HTML_URL' : 'bundled demo runs'),
      'base URLs': [...new Set(entries.map((e) => new URL(e.verdict.run.platformUrl).origin))].join(' '),
      'Profile B host': profileB.host ?? '-',
      'Profile B group': profileB.groupName ?? '-',
      'Profile B companyId': profileB.companyId === undefined ? '-' : String(profileB.companyId),
      workers: String(config.workers),
      shard: selection.shard ?? '-',
      selection: selection.complete ? 'every item' : selection.filters.join(' '),
      Playwright: config.version,
      Chromium: chromiumVersion(),
    });
    writeAllureSummary(results, { verdicts: entries.map((e) => e.verdict) });
  }
  releaseOutputs();
  if (process.env.L1_KEEP_STATE !== '1') fs.rmSync(INVOCATION.root, { recursive: true, force: true });
}
