import fs from 'node:fs';
import path from 'node:path';
import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import { missingEvidence, readEvidence } from '../platform/evidence';
import { ROOT, STATE, settings } from '../run/config';
import type { ItemResult } from '../rules/types';
import {
  ITEM_RESULT_ATTACHMENT,
  buildVerdict,
  summaryTable,
  verdictsDir,
  writeVerdict,
  type ItemOutcome,
  type VerdictFile,
} from './verdict';

interface Options {
  /** Results of an earlier invocation never mix into a new one: this folder is emptied first. */
  allureResultsDir?: string;
}

/**
 * Writes the verdict file of every configured run (contract 7) at the end of every invocation,
 * whatever happened, and prints the run × item summary. Listed first so it clears old results
 * before the Allure reporter starts writing.
 */
export default class VerdictReporter implements Reporter {
  private readonly outcomes = new Map<string, Map<number, ItemOutcome>>();
  private readonly dir = verdictsDir(ROOT);
  private readonly labels = new Set(settings().runs.map((r) => r.label));

  constructor(options: Options = {}) {
    // The verdict folder may be shared (L1_VERDICTS_DIR): only earlier verdict files go. The Allure
    // results folder belongs to allure-playwright, which never clears it itself (toolchain.md).
    for (const file of fs.existsSync(this.dir) ? fs.readdirSync(this.dir) : []) {
      if (file.endsWith('.json')) fs.rmSync(path.join(this.dir, file), { force: true });
    }
    fs.rmSync(path.resolve(ROOT, options.allureResultsDir ?? 'allure-results'), {
      recursive: true,
      force: true,
    });
  }

  printsToStdio(): boolean {
    return true;
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    // An item test: tagged @itemN, inside the describe block of its run (fixtures/index.ts).
    const tag = test.tags.find((t) => /^@item\d+$/.test(t));
    const label = test.parent.title;
    if (!tag || !this.labels.has(label)) return;
    const item = Number(tag.slice('@item'.length));
    const attachment = result.attachments.find((a) => a.name === ITEM_RESULT_ATTACHMENT);
    const ruleResult = attachment?.body
      ? (JSON.parse(attachment.body.toString('utf8')) as ItemResult)
      : undefined;
    const error =
      result.status === 'passed'
        ? undefined
        : result.errors.map((e) => (e.message ?? '').split('\n')[0]).find(Boolean);
    const outcome: ItemOutcome = {
      item,
      passed: result.status === 'passed',
      ...(ruleResult ? { result: ruleResult } : {}),
      ...(error && !ruleResult ? { error: stripAnsi(error) } : {}),
    };
    if (result.status === 'skipped' && !ruleResult)
      outcome.error = 'the test did not run (skipped or interrupted)';
    const runs = this.outcomes.get(label) ?? new Map<number, ItemOutcome>();
    runs.set(item, outcome);
    this.outcomes.set(label, runs);
  }

  onEnd(result: FullResult): void {
    const verdicts: VerdictFile[] = [];
    for (const run of settings().runs) {
      const outcomes = [...(this.outcomes.get(run.label)?.values() ?? [])];
      const verdict = buildVerdict(run, readEvidence(STATE, run.slug) ?? missingEvidence(run), outcomes);
      writeVerdict(this.dir, run.slug, verdict);
      verdicts.push(verdict);
    }
    const rel = path.relative(process.cwd(), this.dir) || '.';
    process.stdout.write(
      `\nL1 verdicts (${rel}, run status ${result.status}):\n${summaryTable(verdicts)}\n\n`,
    );
  }
}

function stripAnsi(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}
