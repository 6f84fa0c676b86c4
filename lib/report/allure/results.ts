import fs from 'node:fs';
import path from 'node:path';

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
