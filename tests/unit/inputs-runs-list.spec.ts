import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from './test-type';
import { ROOT, tsScript } from '../../lib/run/settings';
import { tempDir } from './fakes/temp';

/**
 * `npm run runs` (README.md § Settings): what a night would check, said before the night. A run
 * whose URLs the night cannot read (docs/contract.md §1.1) is said there with the reason the
 * night would give it, never listed as if it were fine.
 */

/** `npm run runs` over a runs file of these runs, with no other L1_ variable. */
function listRuns(runs: unknown[]): { status: number | null; stdout: string; stderr: string } {
  const dir = tempDir('inputs');
  fs.writeFileSync(path.join(dir, 'runs.json'), JSON.stringify(runs));
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('L1_')));
  return spawnSync(...tsScript('scripts/runs.ts'), {
    cwd: ROOT,
    env: { ...env, L1_RUNS: path.join(dir, 'runs.json') },
    encoding: 'utf8',
  });
}

test('npm run runs says what each run reads from its URLs, and why the night would stop a run whose URL lacks a value', () => {
  test.setTimeout(60_000); // one tsx process
  const token = ['tok', 'en99'].join('');
  const r = listRuns([
    {
      label: 'no-type',
      htmlUrl: `https://r.test/l1/101101/view/2026-11-22?companyId=1001&token=${token}`,
      platformUrl: 'https://p.test/projects/101101',
    },
    {
      label: 'no-project',
      htmlUrl: 'https://r.test/l1/101101/monitor/2026-11-22?companyId=1001',
      platformUrl: 'https://p.test/p/101101',
    },
    // Near miss: a run the night can read, with a base URL whose userinfo is never shown.
    {
      label: 'fine',
      htmlUrl: 'https://r.test/l1/101101/diagnosis/20261122?companyId=1001&topic=T1',
      platformUrl: 'https://p.test/projects/101101',
      baseUrl: `https://user:${token}@p.test/api/`,
    },
    {
      label: 'origin',
      htmlUrl: 'https://r.test/l1/101101/monitor/2026-11-22?companyId=1001',
      platformUrl: 'https://P.test:8443/projects/101101',
    },
    {
      label: 'given',
      htmlUrl: 'https://r.test/l1/101102/monitor/2026-11-22?companyId=1001',
      platformUrl: 'https://p.test/projects/101102',
      level: 'product',
      batchId: 'B{batchDateCompact}',
      calDataJson: 'cal-{batchDate}.json',
    },
  ]);
  expect(r.status, r.stderr).toBe(0);
  const lines = r.stdout.split('\n');
  /** The line after a run's label, its html and its platform line. */
  const said = (label: string) => lines[lines.indexOf(label) + 3];
  expect(said('no-type')).toBe(
    '  error     htmlUrl · reportType: missing: add the query reportType=monitor|diagnosis or a path segment monitor|diagnosis',
  );
  expect(said('no-project')).toBe(
    '  error     platformUrl · projectId: missing: add the query projectId=… or a path …/projects/<projectId>/… to the platform URL',
  );
  expect(said('fine')).toBe(
    '  reads     company 1001 · project 101101 · diagnosis · 2026-11-22 · topic T1 · base https://p.test/api',
  );
  // What else a run gives, filled with the night's date, a relative cal_data_json from the runs
  // file's folder (review 59a: none of the three was listed). Near miss: a run that gives none of
  // them gets no such line.
  const given = lines.indexOf('given (templated)');
  const night = /batch date (\d{4})-(\d\d)-(\d\d)/.exec(r.stdout)!.slice(1);
  expect(lines.slice(given + 4, given + 7)).toEqual([
    '  level     product',
    `  batch id  B${night.join('')}`,
    expect.stringMatching(new RegExp(`^  cal data  .*cal-${night.join('-')}\\.json$`)),
  ]);
  expect(lines[lines.indexOf('origin') + 4]).toBe('given (templated)');
  expect(said('origin')).toBe(
    '  reads     company 1001 · project 101101 · monitor · 2026-11-22 · base https://p.test:8443',
  );
  expect(r.stdout + r.stderr).not.toContain(token);
});

test('npm run runs names each run as its test title does: two labels masked alike carry their run number', () => {
  test.setTimeout(60_000); // one tsx process
  const run = (label: string) => ({
    label,
    htmlUrl: 'https://r.test/l1/101101/monitor/2026-11-22?companyId=1001',
    platformUrl: 'https://p.test/projects/101101',
  });
  // Two mobile numbers in labels: each shows as `acme-1**********-monitor`, which told the two
  // runs apart nowhere in the listing, where the test titles say `(run #1)` and `(run #2)`.
  const r = listRuns([run('acme-13800138000-monitor'), run('acme-13900139000-monitor'), run('plain')]);
  expect(r.status, r.stderr).toBe(0);
  const lines = r.stdout.split('\n');
  expect(lines).toContain('acme-1**********-monitor (run #1)');
  expect(lines).toContain('acme-1**********-monitor (run #2)');
  // A label the mask leaves as it is keeps its plain name, as its title does.
  expect(lines).toContain('plain');
  expect(r.stdout).not.toContain('13800138000');
});
