import { expect, test } from '@playwright/test';
import { generatedRuns } from '../../demo/generated';
import { ORIGIN, PORTAL_B_ORIGIN, demoStats, failingItems, resetDemoStats, runSuite } from './harness';

/**
 * docs/rules.md (generated cases through the real suite) and docs/decisions.md (requests per run at the floor): a
 * sample of the demo's generated runs, both profiles and report types, some that cannot be checked
 * and some with one drifted item, checked by the suite exactly as the generator expects, with one
 * page load and one request per endpoint per run.
 */
test('generated runs through the real suite get exactly their expected verdicts, at one request per endpoint', async () => {
  const { runs, expected } = generatedRuns(10, {
    origin: ORIGIN,
    portalBOrigin: PORTAL_B_ORIGIN,
    uncheckable: 0.2,
    failing: 0.2,
  });
  await resetDemoStats();
  const suite = await runSuite({ name: 'generated', runs });
  const stats = (await demoStats()) as Record<string, Record<string, number>>;
  const got = runs.map((r) => {
    const v = suite.verdicts.get(r.label!);
    const want = expected.get(r.label!)!;
    return {
      label: r.label,
      status: v?.status,
      ...(want.failingItems ? { failingItems: v ? failingItems(v) : [] } : {}),
    };
  });
  const wanted = runs.map((r) => {
    const want = expected.get(r.label!)!;
    return {
      label: r.label,
      status: want.status,
      ...(want.failingItems ? { failingItems: want.failingItems } : {}),
    };
  });
  expect(got).toEqual(wanted);
  // Requests per checkable project (ids 90…, 92…; 91… fail on purpose, a 500 is retried): one
  // page load and one request of each kind (a batch list answer counts under every project).
  const counts = Object.entries(stats)
    .filter(([key]) => /^9[02]\d+$/.test(key))
    .flatMap(([project, kinds]) =>
      Object.entries(kinds)
        .filter(([kind]) => kind !== 'batch')
        .map(([kind, n]) => [`${project} · ${kind}`, n] as const),
    );
  expect(counts.length).toBeGreaterThan(0);
  for (const [what, n] of counts) expect(n, what).toBe(1);
});
