import { expect, test } from './test-type';
import { breakFrom, dateOfBatchId, dateOfUrl, inWindow, projectAt, windowDates } from '../../demo/dates';
import { BUNDLED, demoRuns, type DemoProject } from '../../demo/runs';
import { NIGHTLY_SCENARIOS } from '../../demo/scenarios';
import { collectRun } from '../../lib/platform/collect';
import { judge } from '../../lib/report/judged';
import { addDays, fillRun, resolveNight } from '../../lib/run/night';
import { ITEM_NUMBERS } from '../../lib/rules/types';
import { batchItem, configuredRun, fakeDeps, platformFor, viewsOf } from './fakes/platform';

/**
 * README.md § Run it nightly in CI: the demo serves the bundled runs on every night of its window
 * with numbers of their own, and they must agree on every night (the same rules, other seeds); the
 * nightly drift breaks item 5 from its first broken night on, and only then.
 */

/** The items that fail when `project` (on some date) is collected and judged against itself. */
async function failingItems(project: DemoProject): Promise<number[]> {
  const { data, view } = viewsOf(project);
  project.platform?.(view);
  const ids = project.spec.batchIds;
  const listed = project.spec.listed ? [batchItem(project, ids)] : [];
  const platform = platformFor(project, view, ids, listed);
  const evidence = await collectRun(configuredRun(project), fakeDeps(platform, data).deps);
  expect(evidence.status, `${project.label} on ${project.spec.batchDate}: ${evidence.reason ?? ''}`).toBe(
    'checked',
  );
  const judged = judge(evidence);
  return ITEM_NUMBERS.filter((n) => judged.items[n]?.verdict !== 'pass');
}

test('every bundled run agrees on every night of the window (each night its own numbers and batch ids)', async () => {
  // Every 5th date keeps the unit stage quick; the dates differ only by seed.
  const dates = windowDates().filter((_, i) => i % 5 === 0);
  expect(dates.length).toBeGreaterThan(20);
  // Collected, then asserted once: an expect each would be some 300 Playwright steps.
  const wrong: string[] = [];
  for (const base of BUNDLED)
    for (const date of dates) {
      const project = projectAt(base, date)!;
      const failing = await failingItems(project);
      wrong.push(
        ...project.spec.batchIds
          .filter((id) => dateOfBatchId(id) !== date)
          .map((id) => `${base.label} on ${date}: batch id ${id}`),
        ...failing.map((n) => `${base.label} on ${date}: item ${n} fails`),
      );
    }
  expect(wrong).toEqual([]);
});

test('the nightly drift fails item 5 from its first broken night on, and nothing the night before', async () => {
  const [drift] = NIGHTLY_SCENARIOS;
  const broken = breakFrom();
  expect(await failingItems(projectAt(drift!, broken)!)).toEqual([5]);
  expect(await failingItems(projectAt(drift!, addDays(broken, 1))!)).toEqual([5]);
  expect(await failingItems(projectAt(drift!, addDays(broken, -1))!)).toEqual([]);
});

test('outside the window a nightly project has no report that night; its own date is always served', () => {
  const [base] = BUNDLED;
  const old = addDays(windowDates().at(-1)!, -1);
  expect(inWindow(old)).toBe(false);
  expect(projectAt(base!, old)).toBeUndefined();
  expect(projectAt(base!, base!.spec.batchDate)).toBe(base);
});

test('templated bundled runs name the night filled in, in every URL form the demo reads back', () => {
  const night = resolveNight('-3', 'Asia/Shanghai', new Date());
  for (const input of demoRuns('http://127.0.0.1:1', 'http://127.0.0.1:2')) {
    const filled = fillRun(input, night);
    expect(dateOfUrl(new URL(filled.htmlUrl)), filled.htmlUrl).toBe(night.batchDate);
  }
});
