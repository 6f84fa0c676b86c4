import fs from 'node:fs';
import path from 'node:path';

/**
 * The night's Allure results, made ready for its report (scripts/report.ts, README.md § Reading
 * the Allure report) in the results folder itself, before `allure generate` reads them.
 */

/** Items of runs not checked are `broken` with their reason; Playwright's AI prompt attachment goes. */
export function prepareResults(results: string): { broken: number } {
  let broken = 0;
  for (const name of fs.readdirSync(results)) {
    if (!name.endsWith('-result.json')) continue;
    const file = path.join(results, name);
    const result = JSON.parse(fs.readFileSync(file, 'utf8')) as {
      status?: string;
      statusDetails?: { message?: string };
      labels?: { name: string; value: string }[];
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
