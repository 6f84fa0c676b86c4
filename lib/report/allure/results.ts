import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { unreadRunFacts } from '../../run/profile';
import type { ProfileBSettings, RunInput } from '../../run/types';
import type { VerdictFile } from '../../schema/verdict';
import { notCheckedMessage } from '../night';
import { runTitle, safeText } from '../text';
import { runParameters, runTests, TEST_FILE, testIds, type AllureParameter, type RunTest } from './test-ids';

/**
 * The night's Allure results, made ready for its report (scripts/report.ts, README.md § Reading
 * the Allure report) in the results folder itself, before `allure generate` reads them.
 */

/**
 * The message of a test of a run not checked, as the categories group it: Playwright puts the
 * error's name before a thrown error's message (`RunNotChecked: run X not checked …`), a skipped
 * item's message is its reason alone (fixtures/check.ts; `not checked: ` before it in results of
 * the suite before 2026-11-26, which a report may be built again from), and the group of the run
 * (allurerc.mjs, `groupByMessage`) is one only when all of them read the same.
 */
const ERROR_NAME = /^(?:RunNotChecked|not checked): (?=run .+ not checked \()/;

/** The label a category groups the tests of a run by (allurerc.mjs): its group is `run: X`. */
export const RUN_LABEL = 'run';

/**
 * The labels the report shows that allure-playwright names after its own inner workings: the
 * Allure category groups by a label and heads each group with the label's name (`epic: X`), so the
 * run is also the label `run`; the `titlePath` label is Playwright's suite path, with its unnamed
 * root and project (` >  > `) and the part file a run is declared through
 * (`checks/part-08.spec.ts`): it becomes the test's own path, as Allure's `titlePath` field has it
 * (`l1-verify > checks.spec.ts > fault-403`). Whether a label changed.
 */
function relabel(labels: { name: string; value: string }[], titlePath: string[] | undefined): boolean {
  let changed = false;
  const epic = labels.find((l) => l.name === 'epic')?.value;
  if (epic !== undefined && !labels.some((l) => l.name === RUN_LABEL)) {
    labels.push({ name: RUN_LABEL, value: epic });
    changed = true;
  }
  const path = titlePath?.length ? titlePath.join(' > ') : undefined;
  for (const label of labels)
    if (label.name === 'titlePath' && path !== undefined && label.value !== path) {
      label.value = path;
      changed = true;
    }
  return changed;
}

/**
 * Items of runs not checked are `broken` with their reason, and every test of such a run has the
 * one message (`ERROR_NAME`); the labels `run` and `titlePath` are the report's (`relabel`);
 * Playwright's AI prompt attachment goes.
 */
export function prepareResults(results: string): { broken: number } {
  let broken = 0;
  for (const name of fs.readdirSync(results)) {
    if (!name.endsWith('-result.json')) continue;
    const file = path.join(results, name);
    const result = JSON.parse(fs.readFileSync(file, 'utf8')) as {
      status?: string;
      statusDetails?: { message?: string; trace?: string };
      labels?: { name: string; value: string }[];
      titlePath?: string[];
      attachments?: { name: string }[];
      steps?: { name: string; attachments?: { name: string }[] }[];
    };
    let changed = false;
    const kind = result.labels?.find((l) => l.name === 'l1_failure')?.value;
    if (result.status === 'skipped' && kind && kind !== 'values-differ') {
      result.status = 'broken';
      changed = true;
      broken++;
    }
    const details = result.statusDetails;
    if (details?.message && ERROR_NAME.test(details.message)) {
      // Its trace is the message too (the error's stack is its message): both lose the name.
      if (details.trace === details.message) details.trace = details.message.replace(ERROR_NAME, '');
      details.message = details.message.replace(ERROR_NAME, '');
      changed = true;
    }
    if (result.labels && relabel(result.labels, result.titlePath)) changed = true;
    const isPrompt = (a: { name: string }) => a.name === 'error-context';
    if (result.attachments?.some(isPrompt)) {
      result.attachments = result.attachments.filter((a) => !isPrompt(a));
      changed = true;
    }
    if (result.steps?.some((s) => s.name === 'error-context' || s.attachments?.some(isPrompt))) {
      result.steps = result.steps.filter(
        (s) => !(s.name === 'error-context' && s.attachments?.every(isPrompt)),
      );
      changed = true;
    }
    if (changed) fs.writeFileSync(file, JSON.stringify(result));
  }
  return { broken };
}

interface Label {
  name: string;
  value: string;
}

/** The fields of an Allure result this file reads or writes. */
interface Result {
  uuid?: string;
  name?: string;
  fullName?: string;
  testCaseId?: string;
  historyId?: string;
  titlePath?: string[];
  status?: string;
  statusDetails?: { message?: string; trace?: string };
  stage?: string;
  start?: number;
  stop?: number;
  labels?: Label[];
  links?: { url: string; name?: string; type?: string }[];
  parameters?: AllureParameter[];
  steps?: unknown[];
  attachments?: unknown[];
}

export interface CompleteOptions {
  /** The run's group title (fixtures/check.ts `runTitleOf`) when the configured runs are known. */
  titleOf?: (label: string) => string | undefined;
  /** The configured run of a label, when the runs are known (`unreadFacts`). */
  configured?: (label: string) => RunInput | undefined;
  /** The Profile B settings (`unreadFacts`); none: every run never read is Profile A. */
  profileB?: ProfileBSettings;
}

type ParameterFacts = Parameters<typeof runParameters>[0];

export interface Completed {
  /** Results made for tests of runs not checked that left none (an interrupted run's). */
  made: number;
  /** Results of tests the stop cut short, put in their run with the run's reason. */
  cut: number;
  /**
   * A result of the night whose ids are not what `testIds` makes of its name and parameters (the
   * made results' history would not join theirs): the first, described; undefined when all agree.
   */
  idsDiffer?: string;
}

/**
 * The facts of a run whose collection never read its URLs: its verdict's, which the night wrote
 * from its URLs with its own Profile B settings (lib/report/verdict.ts); for a verdict written
 * before it did (its company null), from the configured run when given, else from the verdict's
 * URLs (lib/run/profile.ts `unreadRunFacts`). The verdict comes first: the process that builds the
 * report after a kill may not have the night's settings (in demo mode it has none of the demo's:
 * review of 2026-11-28). Its made results' history id is not its checked nights' when it is
 * Profile B only by its DATA's line (README.md § Reading the Allure report).
 */
export function unreadFacts(
  v: VerdictFile,
  configured: RunInput | undefined,
  profileB: ProfileBSettings,
): ParameterFacts {
  if (v.run.companyId !== null && v.run.reportType !== null && v.run.batchDate !== null) return v.run;
  return (
    unreadRunFacts(
      configured
        ? {
            htmlUrl: configured.htmlUrl,
            platformUrl: configured.platformUrl,
            ...(configured.companyId !== undefined ? { companyId: configured.companyId } : {}),
          }
        : { htmlUrl: v.run.htmlUrl, platformUrl: v.run.platformUrl },
      profileB,
    ) ?? v.run
  );
}

const label = (result: Result, name: string) => result.labels?.find((l) => l.name === name)?.value;

/** The run's group title: the configured runs', else one the night's results use, else its label's. */
function groupTitle(v: VerdictFile, results: readonly Result[], options: CompleteOptions): string {
  const configured = options.titleOf?.(v.run.label);
  if (configured !== undefined) return configured;
  const shown = safeText(v.run.label, 200);
  if (shown === v.run.label) return shown;
  // A label that is not safe to show has its run's number in the title: take it from a result.
  const used = results
    .map((r) => label(r, 'subSuite'))
    .find((t) => t?.startsWith(`${shown} (run #`) && /\(run #\d+\)$/.test(t));
  return used ?? runTitle(v.run.label, 0);
}

function readResults(dir: string): Map<string, Result> {
  const out = new Map<string, Result>();
  for (const name of fs.readdirSync(dir))
    if (name.endsWith('-result.json'))
      try {
        out.set(name, JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as Result);
      } catch {
        // not a result Allure could read either
      }
  return out;
}

/** Whether the night's real results have the ids `testIds` makes; the first that does not, said. */
function checkIds(results: Iterable<Result>): string | undefined {
  for (const r of results) {
    const parts = r.fullName?.split(' › ') ?? [];
    if (parts.length < 3 || parts[0] !== TEST_FILE || !r.parameters?.length) continue;
    const ids = testIds(parts.slice(1, -1).join(' › '), parts[parts.length - 1]!, r.parameters);
    if (ids.testCaseId !== r.testCaseId || ids.historyId !== r.historyId)
      return `${safeText(r.fullName!, 300)}: ${r.testCaseId}, ${r.historyId} by allure-playwright, ${ids.testCaseId}, ${ids.historyId} made`;
  }
  return undefined;
}

/**
 * Every run of the night in the report, from its verdict file (README.md § Reading the Allure
 * report): a test of a run not checked that left no result (the night was stopped before it ran)
 * gets one, `broken`, in the run's group with the labels, parameters and ids a real one has and
 * the run's reason and kind; a result of an interrupted run's test that did not finish (cut by the
 * stop: no run, no item, an empty message) is put in its run the same way. Only for a verdict of a
 * complete selection: a partial one does not say which tests were selected. Run before
 * `prepareResults`; a second run changes nothing.
 */
export function completeNight(
  dir: string,
  verdicts: readonly VerdictFile[],
  options: CompleteOptions = {},
): Completed {
  const runs = verdicts.filter((v) => v.status !== 'checked' && v.selection.complete);
  // The night's results are read only when it has a run not checked (they are read again after).
  if (runs.length === 0) return { made: 0, cut: 0 };
  const files = readResults(dir);
  const all = [...files.values()];
  const byName = new Map<string, [string, Result][]>();
  for (const [file, r] of files)
    if (r.fullName) byName.set(r.fullName, [...(byName.get(r.fullName) ?? []), [file, r]]);
  let made = 0;
  let cut = 0;
  for (const v of runs) {
    const describe = groupTitle(v, all, options);
    // A run whose collection read its URLs has its facts in its verdict, as its tests sent them.
    const parameters = runParameters(
      v.run.companyId !== null
        ? v.run
        : unreadFacts(v, options.configured?.(v.run.label), options.profileB ?? {}),
    );
    const kind = v.status === 'needs-input' ? 'needs-input' : (v.failureKind ?? 'input');
    const message = notCheckedMessage({
      label: v.run.label,
      status: v.status,
      ...(v.failureKind ? { failureKind: v.failureKind } : {}),
      ...(v.reason !== undefined ? { reason: v.reason } : {}),
    });
    const ended = new Set<RunTest['test'] | number>(v.items.map((i) => i.item));
    for (const test of runTests()) {
      const ids = testIds(describe, test.title, parameters);
      const labels: Label[] = [
        { name: 'epic', value: describe },
        { name: 'feature', value: test.feature },
        { name: RUN_LABEL, value: describe },
        { name: 'l1_failure', value: kind },
      ];
      const found = byName.get(ids.fullName) ?? [];
      if (found.length === 0) {
        const uuid = randomUUID();
        const at = Date.parse(v.generatedAt) || Date.now();
        const result: Result = {
          uuid,
          name: test.name,
          fullName: ids.fullName,
          testCaseId: ids.testCaseId,
          historyId: ids.historyId,
          titlePath: ids.titlePath,
          status: 'broken',
          statusDetails: { message, trace: message },
          stage: 'finished',
          start: at,
          stop: at,
          labels: [
            { name: 'language', value: 'javascript' },
            { name: 'framework', value: 'playwright' },
            { name: 'package', value: `${ids.titlePath[0]}.${TEST_FILE}` },
            { name: '_fallbackTestCaseId', value: ids.fallbackTestCaseId },
            { name: 'titlePath', value: ids.titlePath.join(' > ') },
            ...test.tags.map((value) => ({ name: 'tag', value })),
            ...labels,
            { name: 'subSuite', value: describe },
          ],
          links: [{ url: v.run.htmlUrl, name: 'report page' }],
          parameters,
          steps: [],
          attachments: [],
        };
        fs.writeFileSync(path.join(dir, `${uuid}-result.json`), JSON.stringify(result));
        made++;
        continue;
      }
      if (v.failureKind !== 'interrupted') continue;
      for (const [file, r] of found) {
        // What ended is the run's as its verdict says: a passed collection, an item with a verdict.
        if (r.status === 'passed' || ended.has(test.test)) continue;
        const once = (n: Label) =>
          r.labels
            ?.filter((l) => l.name === n.name)
            .map((l) => l.value)
            .join('\n') === n.value;
        const done = r.status === 'broken' && r.statusDetails?.message === message && labels.every(once);
        if (done && r.parameters?.length) continue;
        r.status = 'broken';
        r.statusDetails = { message, trace: message };
        r.labels = [...(r.labels ?? []).filter((l) => !labels.some((n) => n.name === l.name)), ...labels];
        // Cut before the test sent its metadata: no parameters, and a history id without them.
        if (!r.parameters?.length) {
          r.parameters = parameters;
          r.historyId = ids.historyId;
        }
        fs.writeFileSync(path.join(dir, file), JSON.stringify(r));
        cut++;
      }
    }
  }
  const idsDiffer = made + cut ? checkIds(all) : undefined;
  return { made, cut, ...(idsDiffer ? { idsDiffer } : {}) };
}
