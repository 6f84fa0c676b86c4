import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { fileKeyOf, loadSettings, SettingsError, type Settings } from '../../lib/run/inputs';
import type { RunInput } from '../../lib/run/types';

/** loadSettings (docs/contract.md §1): which runs an invocation checks, their labels and file names. */

const html = (project: string, company = 1001) =>
  `http://h.test/reports/${project}/monitor/2025-11-17?companyId=${company}`;
const platform = (project: string) => `http://h.test/platform/projects/${project}/overview`;
const entry = (project: string, extra: Partial<RunInput> = {}): RunInput => ({
  htmlUrl: html(project),
  platformUrl: platform(project),
  ...extra,
});

const demoRuns = [entry('101101', { label: 'A-monitor' })];
const demo = () => ({ runs: demoRuns, profileB: { host: 'portal.test' } });

/** Writes an L1_RUNS file in a fresh folder and loads the settings with it (relative to the root). */
function withRunsFile(content: unknown, env: NodeJS.ProcessEnv = {}, bundled = demo): Settings {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'l1-settings-'));
  fs.writeFileSync(
    path.join(root, 'runs.json'),
    typeof content === 'string' ? content : JSON.stringify(content),
  );
  return loadSettings({ L1_RUNS: 'runs.json', ...env }, root, bundled);
}

function refusal(load: () => unknown): string {
  try {
    load();
  } catch (e) {
    return e instanceof SettingsError ? e.message : `not a SettingsError: ${String(e)}`;
  }
  return 'loaded';
}

test.describe('loadSettings: where the runs come from (docs/contract.md §1)', () => {
  test('L1_RUNS wins over L1_HTML_URL, which wins over the demo', () => {
    const single = { L1_HTML_URL: html('555'), L1_PLATFORM_URL: platform('555') };
    const fromFile = withRunsFile([entry('101101')], single);
    expect(fromFile.mode).toBe('L1_RUNS');
    expect(fromFile.runs.map((r) => r.input.htmlUrl)).toEqual([html('101101')]);

    const fromEnv = loadSettings({ ...single, L1_LABEL: 'one', L1_LEVEL: 'product' }, '/', demo);
    expect(fromEnv.mode).toBe('L1_HTML_URL');
    expect(fromEnv.runs).toEqual([
      { label: 'one', slug: 'one', input: { ...entry('555'), label: 'one', level: 'product' } },
    ]);

    const fromDemo = loadSettings({}, '/', demo);
    expect(fromDemo).toEqual({
      mode: 'demo',
      runs: [{ label: 'A-monitor', slug: 'A-monitor', input: demoRuns[0] }],
      profileB: { host: 'portal.test' },
    });
  });

  test('the demo is asked for its runs only when neither L1_RUNS nor L1_HTML_URL is set', () => {
    let asked = 0;
    const counting = () => (asked++, demo());
    withRunsFile([entry('101101')], {}, counting);
    loadSettings({ L1_HTML_URL: html('1'), L1_PLATFORM_URL: platform('1') }, '/', counting);
    expect(asked).toBe(0);
    loadSettings({}, '/', counting);
    expect(asked).toBe(1);
  });

  test('L1_HTML_URL without L1_PLATFORM_URL is one run that fails with its reason', () => {
    const s = loadSettings({ L1_HTML_URL: html('555') }, '/', demo);
    expect(s.runs).toHaveLength(1);
    expect(s.runs[0]!.inputError).toBe('L1_PLATFORM_URL not set: a single run needs both');
  });

  test('Profile B settings from the environment; a company id that is not an integer stops the invocation', () => {
    const s = withRunsFile([entry('1')], {
      L1_PROFILE_B_HOST: ' portal.test ',
      L1_PROFILE_B_COMPANY_ID: '3100',
      L1_PROFILE_B_BRAND_CODE: 'XH',
    });
    expect(s.profileB).toEqual({ host: 'portal.test', companyId: 3100, brandCode: 'XH' });
    expect(refusal(() => withRunsFile([entry('1')], { L1_PROFILE_B_COMPANY_ID: '31x' }))).toContain(
      'L1_PROFILE_B_COMPANY_ID must be an integer',
    );
  });
});

test.describe('loadSettings: the L1_RUNS file', () => {
  test('a malformed entry keeps its error and its label; the other runs are unaffected', () => {
    const s = withRunsFile([
      entry('101101'),
      { htmlUrl: 5, label: 'broken' },
      { ...entry('102201'), level: 'x' },
    ]);
    expect(s.runs.map((r) => r.label)).toEqual([
      '1001-101101-monitor-2025-11-17',
      'broken',
      '1001-102201-monitor-2025-11-17',
    ]);
    expect(s.runs[0]!.inputError).toBeUndefined();
    expect(s.runs[1]!.inputError).toMatch(/^L1_RUNS .*runs\.json run #2: \[1\]\.htmlUrl/);
    expect(s.runs[1]!.inputError).toContain('[1].platformUrl');
    expect(s.runs[2]!.inputError).toContain('run #3: [2].level');
  });

  test('a file that cannot be read, is not JSON, not an array or empty stops the invocation naming it', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'l1-settings-'));
    expect(refusal(() => loadSettings({ L1_RUNS: 'absent.json' }, root, demo))).toBe(
      `L1_RUNS file ${path.join(root, 'absent.json')} cannot be read (ENOENT)`,
    );
    expect(refusal(() => withRunsFile('[{'))).toContain('not valid JSON');
    expect(refusal(() => withRunsFile({ runs: [] }))).toContain('must hold a JSON array of runs');
    expect(refusal(() => withRunsFile([]))).toContain('holds no run');
  });
});

test.describe('loadSettings: labels and file names', () => {
  test('a label given twice stops the invocation naming both runs', () => {
    const message = refusal(() =>
      withRunsFile([entry('1', { label: 'x' }), entry('2', { label: 'y' }), entry('3', { label: ' x ' })]),
    );
    expect(message).toContain('runs #1 and #3 both have the label "x"');
  });

  test('labels that differ only in case would share a file: refused, naming both', () => {
    const message = refusal(() => withRunsFile([entry('1', { label: 'Run' }), entry('2', { label: 'run' })]));
    expect(message).toContain('runs #1 ("Run") and #2 ("run") would share the file name run');
  });

  test('labels that differ get distinct file keys', () => {
    const labels = ['A monitor', 'A-monitor', 'a/b', 'ａ/ｂ', '报告 一', '报告-一', 'x.json'];
    const s = withRunsFile(labels.map((label, i) => entry(String(i + 1), { label })));
    const slugs = s.runs.map((r) => r.slug);
    expect(new Set(slugs.map((k) => k.toLowerCase())).size).toBe(labels.length);
    expect(slugs[1]).toBe('A-monitor');
    for (const slug of slugs) expect(slug).toMatch(/^[\p{L}\p{N}._-]+$/u);
  });

  test('a long label gets a short file name, unique by a hash of the whole label', () => {
    const long = `${'季度监测报告'.repeat(40)}`;
    const a = fileKeyOf(`${long}-A`);
    const b = fileKeyOf(`${long}-B`);
    expect(a).not.toBe(b);
    expect([...a].length).toBeLessThanOrEqual(69);
    expect(Buffer.byteLength(a)).toBeLessThan(255);
  });

  test('derived labels that collide get -2, -3; an explicit label keeps its name', () => {
    const s = withRunsFile([
      entry('101101'),
      entry('101101'),
      entry('101101', { label: '1001-101101-monitor-2025-11-17-2' }),
    ]);
    expect(s.runs.map((r) => r.label)).toEqual([
      '1001-101101-monitor-2025-11-17',
      '1001-101101-monitor-2025-11-17-3',
      '1001-101101-monitor-2025-11-17-2',
    ]);
  });
});
