import { expect, test } from './test-type';
import {
  checksMeaning,
  EXIT_MEANINGS,
  gridText,
  jobExitCode,
  playwrightFailedMeaning,
  summarize,
  summaryMarkdown as markdownOf,
  worstExitCode,
} from '../../lib/report/night';
import fs from 'node:fs';
import path from 'node:path';
import type { VerdictFile } from '../../lib/schema/verdict';
import { displayWidth, safeText } from '../../lib/report/text';
import type { Selection } from '../../lib/schema/verdict';
import { fakeVerdict } from './fakes/verdicts';
import { tempDir } from './fakes/temp';
import { failingItemLines } from '../../lib/report/junit';
import { writeVerdictFolder } from '../../lib/report/verdict-folder';
import { nightVariables } from '../../lib/report/allure/summary';
import { nightEnvironment } from '../../lib/report/allure/facts';

const selection: Selection = { filters: [], shard: null, complete: true };

const verdict = fakeVerdict;

/** One night summary (lib/report/night.ts), rendered: every rendering reads this one object. */
const summaryGrid = (verdicts: VerdictFile[]) => gridText(summarize(verdicts, selection));
const summaryMarkdown = (verdicts: VerdictFile[], sel: Selection) => markdownOf(summarize(verdicts, sel));
const exitCodeOf = (verdicts: VerdictFile[]) => summarize(verdicts, selection).exitCode;

const all = (v: 'pass' | 'fail') => Object.fromEntries([3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((i) => [i, v]));

test.describe('the terminal grid', () => {
  test('columns are items 3 … 12 in numeric order, cells pass / FAIL / ·, then the status', () => {
    // Items recorded out of order: the grid orders them.
    const v = verdict('run-a', { 12: 'pass', 3: 'fail', 10: 'pass', 4: 'pass' });
    const lines = summaryGrid([v]).split('\n');
    expect(lines[0]!.trim().split(/\s+/)).toEqual([
      'run',
      '3',
      '4',
      '5',
      '6',
      '7',
      '8',
      '9',
      '10',
      '11',
      '12',
      'status',
    ]);
    expect(lines[1]!.trim().split(/\s+/)).toEqual([
      'run-a',
      'FAIL',
      'pass',
      '·',
      '·',
      '·',
      '·',
      '·',
      'pass',
      '·',
      'pass',
      'checked',
    ]);
    expect(summaryGrid([v])).not.toMatch(/[✅❌]/);
  });

  test('lists the runs not checked with status and reason, capped at 300 characters', () => {
    const broken = verdict(
      'run-b',
      {},
      { status: 'error', reason: 'x'.repeat(400), failureKind: 'platform' },
    );
    const text = summaryGrid([verdict('run-a', all('pass')), broken]);
    expect(text).toContain('runs not checked:');
    const line = text.split('\n').find((l) => l.startsWith('  run-b · '))!;
    expect(line).toContain('error, platform');
    expect(line).toContain(`${'x'.repeat(300)}… (100 more characters)`);
    expect(line).not.toContain('x'.repeat(301));
    expect(text).toContain(
      '2 runs: 1 checked (1 passing, 0 with failing items, 0 failing items), 1 not checked (platform 1)',
    );
  });

  test('control characters in labels and reasons cannot clear the screen or fake a line', () => {
    const label = 'evil\u001b[2J\r\n✓ 1 passed';
    const reason = 'boom\n✓ 1 passed\r\u001b[2J\u202e';
    const text = summaryGrid([verdict(label, {}, { status: 'error', reason })]);
    // Every line is already what safeText makes of it: no control character left to act.
    expect(text.split('\n').filter((line) => safeText(line) !== line)).toEqual([]);
    // No line of the output starts with the planted "✓ 1 passed".
    expect(text.split('\n').some((l) => l.trimStart().startsWith('✓'))).toBe(false);
    expect(text).toContain('evil\\x1b[2J\\x0d\\x0a✓ 1 passed');
    expect(text).toContain('boom\\x0a✓ 1 passed\\x0d\\x1b[2J\\u202e');
  });

  test('a label cannot start a CI workflow command (a line that starts with ::, spaces before it too): its first colon is escaped (output injection audit)', () => {
    const label = '::notice title=INJ::r1';
    const passed = verdict(label, { ...all('pass'), 5: 'pass' });
    passed.items.find((i) => i.item === 5)!.passBy = ['tie swap (spec 9.5.5) ×1'];
    const text = summaryGrid([passed, verdict(`  ${label}-b`, {}, { status: 'error', reason: 'boom' })]);
    expect(text.split('\n').filter((line) => /^\s*::/.test(line))).toEqual([]);
    expect(text).toContain('\\x3a:notice title=INJ::r1');
    // Near miss: a colon inside a label, or one alone at its start, is shown as it is.
    expect(summaryGrid([verdict('a::b', all('pass')), verdict(':c', all('pass'))])).toMatch(/^a::b .*\n:c /m);
  });

  test('Chinese labels line up with ASCII ones', () => {
    const lines = summaryGrid([verdict('森氧科技', all('pass')), verdict('abc', all('pass'))]).split('\n');
    // 4 wide characters take 8 terminal columns: the ASCII label is padded to 8 as well.
    expect(lines[1]!.startsWith('森氧科技 pass')).toBe(true);
    expect(lines[2]!.startsWith('abc      pass')).toBe(true);
    expect(displayWidth(lines[1]!)).toBe(displayWidth(lines[2]!));
  });

  test('a label shorter than the "run" heading still lines up its item columns under the heading (README.md: "prints a run × item grid")', () => {
    const lines = summaryGrid([verdict('a', { 3: 'fail' })]).split('\n');
    expect(lines[1]!.indexOf('FAIL')).toBe(lines[0]!.indexOf('3'));
  });

  test('an empty list says so', () => {
    expect(summaryGrid([])).toContain('no verdict');
  });

  test('lists under "runs not checked" only the runs not checked, and says none when every run was checked', () => {
    const checked = [verdict('run-a', all('pass')), verdict('run-b', { 5: 'fail' })];
    expect(summaryGrid(checked)).toContain('runs not checked: none');
    const text = summaryGrid([...checked, verdict('run-c', {}, { status: 'error', reason: 'x' })]);
    expect(text.split('\n').filter((l) => l.startsWith('  run-'))).toEqual(['  run-c · error · x']);
  });
});

test('the kinds of runs not checked are counted in one order, whatever the order of the runs (reader audit: two lines of one console disagreed)', () => {
  const kinds = ['platform', 'input', 'configuration'] as const;
  const runs = [
    ...kinds.map((kind) => verdict(kind, {}, { status: 'error', failureKind: kind, reason: 'r' })),
    verdict('ask', {}, { status: 'needs-input', reason: 'r' }),
  ];
  const order = (vs: VerdictFile[]) => Object.keys(summarize(vs, selection).counts.byKind);
  expect(order(runs)).toEqual(['input', 'platform', 'needs-input', 'configuration']);
  expect(order([...runs].reverse())).toEqual(order(runs));
});

test('an invocation stopped before every test ended exits 2, and a partial one says the runs it never reached are not listed (CLI audit: --grep item5 -x exited 1, a run missing)', () => {
  const failed = [verdict('drift', { 5: 'fail' })];
  const stop = 'the invocation stopped before every test ended';
  const partial = { filters: ['--grep item5'], shard: null, complete: false };
  expect(summarize(failed, partial).exitCode).toBe(1);
  const s = summarize(failed, partial, stop);
  expect(s.exitCode).toBe(2);
  expect(gridText(s)).toContain(
    `stopped early: ${stop}; runs it never reached are not listed (a partial invocation cannot tell them from runs its filter left out); exit code of the checks 2`,
  );
  expect(markdownOf(s)).toContain('stopped early');
  expect(gridText(summarize(failed, selection, stop))).toContain(
    `stopped early: ${stop}; exit code of the checks 2`,
  );
});

test("the batch date says which runs the templated night was, and the dates other runs fixed (reader audit: the night alone read as every run's)", () => {
  const night = { batchDate: '2026-11-25', describe: '2026-11-25 (yesterday in Asia/Shanghai)' };
  const on = (label: string, batchDate: string) => {
    const v = verdict(label, all('pass'), { night });
    return { ...v, run: { ...v.run, batchDate } };
  };
  const mixed = summarize([on('a', '2026-11-25'), on('b', '2025-11-17'), on('c', '2025-11-10')], selection);
  expect(mixed.batchDateText).toBe(
    '2026-11-25 (yesterday in Asia/Shanghai); fixed in their URLs: 2025-11-10, 2025-11-17',
  );
  expect(markdownOf(mixed)).toContain(
    'Batch date 2026-11-25 (yesterday in Asia/Shanghai); fixed in their URLs: 2025-11-10, 2025-11-17.',
  );
  expect(summarize([on('a', '2026-11-25')], selection).batchDateText).toBe(night.describe);
  expect(summarize([verdict('x', all('pass'))], selection).batchDateText).toBe('2025-11-17');
});

test('the Allure overview says the dates runs fixed in an entry of their own, "other batch dates": it cuts each value to about 35 characters, and one entry read "2026-11-25 (yesterday in Asia/Shangha…" where most runs checked another day (reader audit of 2026-11-28)', () => {
  const night = { batchDate: '2026-11-25', describe: '2026-11-25 (yesterday in Asia/Shanghai)' };
  const on = (label: string, batchDate: string) => {
    const v = verdict(label, all('pass'), { night });
    return { ...v, run: { ...v.run, batchDate } };
  };
  const mixed = summarize([on('a', '2026-11-25'), on('b', '2025-11-17'), on('c', '2025-11-10')], selection);
  const dates = {
    'batch date': '2026-11-25 (yesterday in Asia/Shanghai)',
    'other batch dates': '2025-11-10, 2025-11-17 (fixed in their URLs)',
  };
  expect(nightVariables(mixed)).toMatchObject(dates);
  expect(nightEnvironment([], mixed)).toMatchObject(dates);
  // Near misses: every run on the night, and no templated night, keep one entry.
  const one = summarize([on('a', '2026-11-25')], selection);
  expect(Object.keys(nightVariables(one))).not.toContain('other batch dates');
  expect(nightEnvironment([], one)['batch date']).toBe(night.describe);
  const fixedOnly = summarize([verdict('x', all('pass'))], selection);
  expect(nightVariables(fixedOnly)['batch date']).toBe('2025-11-17');
  expect(Object.keys(nightEnvironment([], fixedOnly))).not.toContain('other batch dates');
});

test.describe('labels in the grids', () => {
  test('two long labels that differ at their end are told apart, one with FAIL; a long Chinese label stays within 60 columns (reader audit)', () => {
    const family = 'nightly-acme-air-purifier-monitor-east-china-region-group-one-report';
    const s = summarize(
      [
        verdict(`${family}-A`, all('pass')),
        verdict(`${family}-B`, { 5: 'fail' }),
        verdict('监测报告'.repeat(30), all('pass')),
      ],
      selection,
    );
    const [a, b, cjk] = s.grid.map((r) => r.shown);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^nightly-acme-.*….*report-A$/);
    expect(b).toMatch(/….*report-B$/);
    for (const shown of [a!, b!, cjk!]) expect(displayWidth(shown)).toBeLessThanOrEqual(60);
    const grid = gridText(s).split('\n');
    expect(grid.find((l) => l.startsWith(b!))).toContain('FAIL');
    expect(grid.find((l) => l.startsWith(a!))).not.toContain('FAIL');
    const md = markdownOf(s);
    expect(md).toContain(`| ${a} |`);
    expect(md).toContain(`| ${b} |`);
  });

  test('labels that still show alike get #1, #2 in grid order; short ones are shown whole', () => {
    const middle = (x: string) => `${'a'.repeat(45)}${x}${'z'.repeat(45)}`;
    const s = summarize(
      [verdict(middle('1'), all('pass')), verdict(middle('2'), all('pass')), verdict('ok', all('pass'))],
      selection,
    );
    const shown = s.grid.map((r) => r.shown);
    expect(shown[0]).toMatch(/ #1$/);
    expect(shown[1]).toMatch(/ #2$/);
    expect(shown[0]!.replace(/ #1$/, '')).toBe(shown[1]!.replace(/ #2$/, ''));
    expect(shown[2]).toBe('ok');
  });
});

test.describe('summary.md', () => {
  test('a table with ✅ / ❌ / ·, the counts, the selection and the runs not checked', () => {
    const md = summaryMarkdown(
      [
        verdict('ok', all('pass')),
        verdict('bad', { 5: 'fail', 6: 'pass' }),
        verdict('down', {}, { status: 'needs-input', reason: 'ask | which <b>batch</b>' }),
      ],
      { filters: ['item5'], shard: null, complete: false },
    );
    expect(md).toContain('| run | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12 | status |');
    expect(md).toContain('| ok | ✅ | ✅ | ✅ | ✅ | ✅ | ✅ | ✅ | ✅ | ✅ | ✅ | checked |');
    expect(md).toContain('| bad | · | · | ❌ | ✅ | · | · | · | · | · | · | checked |');
    expect(md).toContain('| 3 | 2 | 1 | 1 | 1 | 1 |');
    expect(md).toContain('`item5`');
    expect(md).toContain('- **down** · needs-input · ask \\| which &lt;b&gt;batch&lt;/b&gt;');
    expect(md).not.toContain('<b>');
  });

  test('a label cannot add a column or a line', () => {
    const md = summaryMarkdown([verdict('a | b\n| x', all('pass'))], selection);
    const row = md.split('\n').find((l) => l.startsWith('| a'))!;
    expect(row.split(/(?<!\\)\|/)).toHaveLength(14);
  });
});

test.describe('the exit code of the checks', () => {
  test('0 when every run is checked and passes', () => {
    expect(exitCodeOf([verdict('a', all('pass')), verdict('b', { 5: 'pass' })])).toBe(0);
  });

  test('1 when an item failed on checked data', () => {
    expect(exitCodeOf([verdict('a', all('pass')), verdict('b', { 5: 'fail' })])).toBe(1);
    // One failing item among items that passed is enough.
    expect(exitCodeOf([verdict('a', { ...all('pass'), 5: 'fail' })])).toBe(1);
  });

  test('2 when a run is not checked, over 1', () => {
    expect(
      exitCodeOf([verdict('a', { 5: 'fail' }), verdict('b', {}, { status: 'error', reason: 'x' })]),
    ).toBe(2);
    expect(
      exitCodeOf([verdict('a', all('pass')), verdict('b', {}, { status: 'needs-input', reason: 'x' })]),
    ).toBe(2);
  });

  test('2 when there is nothing: no verdict, or no item at all', () => {
    expect(exitCodeOf([])).toBe(2);
    expect(exitCodeOf([verdict('a', {})])).toBe(2);
  });

  test('a shard with no run is 0 in its own files, as its job says ("no check ran"), and says why: more shards than runs, or its filters left it none (CLI audit of 2026-11-28: index.json and summary.md said 2); near miss: no verdict without a shard is still 2', () => {
    const shard = { filters: [], shard: '5/5', complete: true };
    const filtered = { filters: ['--grep A-monitor.*item5'], shard: '2/2', complete: false };
    const empty = summarize([], shard);
    expect(empty.exitCode).toBe(0);
    expect(gridText(empty)).toBe('no run in shard 5/5: more shards than runs (fine)');
    expect(markdownOf(empty)).toContain('No run in shard 5/5: more shards than runs (fine).');
    expect(markdownOf(empty)).toContain('Exit code of the checks 0.');
    expect(gridText(summarize([], filtered))).toBe(
      'no run in shard 2/2: more shards than runs, or its filters left it none (fine)',
    );
    expect(summarize([], selection).exitCode).toBe(2);
    expect(gridText(summarize([], selection))).toBe('no verdict: no run was checked');
  });

  test('a run with no item run beside runs whose items ran does not make it 2: only a night where no item ran at all is (README.md § Results that survive every way Playwright is run)', () => {
    expect(exitCodeOf([verdict('kept-collection-only', {}), verdict('run-a', all('pass'))])).toBe(0);
    expect(exitCodeOf([verdict('kept-collection-only', {}), verdict('run-a', { 5: 'fail' })])).toBe(1);
  });
});

test.describe('one exit code for a job (the exit table of README.md § Two commands on a fresh machine)', () => {
  test('each exit code says its own row of the table (README.md: "Exit code 1: some item failed on checked data"), never another code\'s meaning', () => {
    expect(EXIT_MEANINGS).toEqual({
      0: 'every run checked, every item passed',
      1: 'some item failed on checked data',
      2: 'some run could not be checked',
      3: 'the report or the redaction guard failed (this wins over 2 and 1)',
    });
  });

  test('3 (the report or the redaction guard failed) wins over 2 and 1: a leak is never hidden', () => {
    for (const checks of [0, 1, 2] as const) {
      expect(jobExitCode({ checks, guardFailed: true })).toBe(3);
      expect(jobExitCode({ checks, reportFailed: true })).toBe(3);
      expect(jobExitCode({ checks })).toBe(checks);
    }
  });

  test('Playwright failed an invocation whose verdicts all pass: 1, never 0; a worse code of the checks stays, 3 still wins', () => {
    expect(jobExitCode({ checks: 0, playwrightFailed: true })).toBe(1);
    expect(jobExitCode({ checks: 0, playwrightFailed: false })).toBe(0);
    expect(jobExitCode({ checks: 2, playwrightFailed: true })).toBe(2);
    expect(jobExitCode({ checks: 0, playwrightFailed: true, guardFailed: true })).toBe(3);
  });

  test("what that 1 says is one sentence, the main job's and CI's finish.ts's alike, its parenthesis opened and closed by it (8fc9398 left each caller to open it: review 58)", () => {
    const why = '--fail-on-flaky-tests after a test that passed on its retry, or an error outside the tests';
    expect(playwrightFailedMeaning('the invocation', 'its exit code 1', 'see above')).toBe(
      `every verdict passes, but Playwright failed the invocation (its exit code 1: ${why}; see above)`,
    );
    expect(playwrightFailedMeaning('a shard', '2: 1, 3: 1', 'see its log')).toBe(
      `every verdict passes, but Playwright failed a shard (2: 1, 3: 1: ${why}; see its log)`,
    );
  });
});

test.describe('passes by a special clause and runs not checked read differently', () => {
  test('a tie swap pass is pass* in the grid, ✅* in summary.md, and listed with its clause', () => {
    const v = verdict('B-monitor', all('pass'));
    v.items.find((i) => i.item === 5)!.passBy = ['tie swap (spec 9.5.5) ×1'];
    const s = summarize([v], selection);
    expect(s.grid[0]!.items[5]).toBe('pass*');
    expect(s.counts.annotatedPasses).toBe(1);
    expect(gridText(s)).toContain(
      'passes by a special clause (pass*):\n  B-monitor · item 5: tie swap (spec 9.5.5) ×1',
    );
    expect(markdownOf(s)).toContain('| ✅ | ✅ | ✅\\* | ✅ |');
    expect(s.exitCode).toBe(0);
  });

  test('a checked run where no item ran (`--grep-invert item`) is not counted as passing: nothing passes by default', () => {
    const s = summarize([verdict('kept-collection-only', {}), verdict('run-a', all('pass'))], {
      ...selection,
      filters: ['--grep-invert item'],
      complete: false,
    });
    expect(s.counts).toMatchObject({ checked: 2, passing: 1, noItems: 1, failing: 0 });
    expect(gridText(s)).toContain(
      '2 runs: 2 checked (1 passing, 0 with failing items, 0 failing items, 1 with no item run), 0 not checked',
    );
    expect(markdownOf(s)).toContain('| 2 | 2 | 1 | 0 | 0 | 0 |');
    expect(markdownOf(s)).toContain(
      '1 checked run with no item run (the selection kept no item test of them).',
    );
    // Every run without an item: the checks' exit code is 2, as with no verdict at all.
    expect(summarize([verdict('kept-collection-only', {})], selection).exitCode).toBe(2);
    // A night where items ran says nothing of it.
    expect(gridText(summarize([verdict('run-a', all('pass'))], selection))).not.toContain('no item run');
  });

  test('the exit line of a night whose every run was collected but ran no item says so, where "some run could not be checked" misled (README audit, --grep-invert item); near misses keep the usual meaning', () => {
    const meaning = (verdicts: VerdictFile[], stopped?: string) =>
      checksMeaning(summarize(verdicts, { ...selection, complete: false }, stopped));
    expect(meaning([verdict('a', {}), verdict('b', {})])).toBe(
      'every run was collected, but no item test ran (the selection kept none): nothing was compared',
    );
    // A run not checked beside them: 2 means what it says.
    expect(
      meaning([
        verdict('a', {}),
        verdict('b', {}, { status: 'error', failureKind: 'platform', reason: 'x' }),
      ]),
    ).toBeUndefined();
    // A stop: the stop is the reason.
    expect(meaning([verdict('a', {})], 'SIGTERM')).toBeUndefined();
    // Items ran somewhere: the code is 0 or 1 and keeps its meaning.
    expect(meaning([verdict('a', {}), verdict('b', all('pass'))])).toBeUndefined();
    expect(meaning([])).toBeUndefined();
  });

  test('an item that failed on compared data in a run the stop interrupted is counted in every headline, apart from the checked runs; an item failed because its run was not checked is not (night audit of 2026-11-28: "0 failing items" under a FAIL)', () => {
    const interrupted = verdict(
      'drift',
      { 3: 'pass', 4: 'pass', 5: 'fail' },
      {
        status: 'error',
        failureKind: 'interrupted',
        reason: 'the invocation was interrupted by SIGTERM while item 6 ran',
      },
    );
    // Near miss: an item that failed because its run could not be checked has no step.
    const refused = verdict('refused', {}, { status: 'error', failureKind: 'platform', reason: 'HTTP 403' });
    refused.items = [{ item: 3, verdict: 'fail', steps: [], notes: ['run refused not checked: HTTP 403'] }];
    const summary = summarize([verdict('good', all('pass')), interrupted, refused], selection, 'SIGTERM');
    expect(summary.counts).toMatchObject({ failing: 0, failingItems: 0, failingItemsNotChecked: 1 });
    expect(gridText(summary)).toContain(
      '3 runs: 1 checked (1 passing, 0 with failing items, 0 failing items), 2 not checked (platform 1, interrupted 1), with 1 failing item on the data they checked',
    );
    expect(markdownOf(summary)).toContain(
      'Runs not checked whole, with 1 failing item on the data they checked (❌ in their rows).',
    );
    expect(nightVariables(summary)).toMatchObject({
      failing: '1 run(s) not checked whole: drift',
      'failing items': 'item 5 ×1',
    });
    expect(nightEnvironment([], summary).result).toBe(
      '1 of 3 run(s) checked, 0 with failing items, 2 not checked (with 1 failing item on the data they checked)',
    );
    // Without such an item the lines are as before.
    const plain = summarize([verdict('good', all('pass')), refused], selection);
    expect(plain.counts.failingItemsNotChecked).toBe(0);
    expect(gridText(plain)).not.toContain('on the data they checked');
    expect(nightVariables(plain)).toMatchObject({ failing: 'none', 'failing items': 'none' });
  });

  test('an item of a run not checked that failed only with its reason (selected alone: --grep item5) is · in every grid, as in a full night, not FAIL under "1 failing item" (reader audit of 2026-11-28)', () => {
    const refused = verdict('refused', {}, { status: 'error', failureKind: 'platform', reason: 'HTTP 403' });
    refused.items = [{ item: 5, verdict: 'fail', steps: [], notes: ['run refused not checked: HTTP 403'] }];
    const asked = verdict('asked', {}, { status: 'needs-input', failureKind: 'needs-input', reason: 'ask' });
    asked.items = [{ item: 5, verdict: 'fail', steps: [], notes: ['run asked not checked: ask'] }];
    const partial: Selection = { filters: ['--grep item5'], shard: null, complete: false };
    const summary = summarize([verdict('drift', { 5: 'fail' }), refused, asked], partial);
    expect(summary.grid.map((r) => r.items[5])).toEqual(['FAIL', '·', '·']);
    expect(gridText(summary)).toContain('1 failing item');
    expect(
      gridText(summary)
        .split('\n')
        .filter((l) => l.includes('FAIL')),
    ).toHaveLength(1);
    expect(markdownOf(summary).match(/❌/g)).toHaveLength(1);
    // Near misses: an item of a checked run that failed without a step is FAIL; so is an item that
    // failed on compared values before a stop cut its run short.
    const noResult = verdict('no-result', {});
    noResult.items = [
      { item: 5, verdict: 'fail', steps: [], notes: ['the run has no result for this item'] },
    ];
    const cut = verdict(
      'cut',
      { 5: 'fail' },
      { status: 'error', failureKind: 'interrupted', reason: 'SIGTERM' },
    );
    expect(summarize([noResult, cut], selection).grid.map((r) => r.items[5])).toEqual(['FAIL', 'FAIL']);
  });

  test('needs-input is said once (not "needs-input (needs-input)"); counts by kind', () => {
    const s = summarize(
      [
        verdict('a', {}, { status: 'needs-input', failureKind: 'needs-input', reason: 'ask' }),
        verdict(
          'b',
          {},
          { status: 'error', failureKind: 'configuration', reason: 'set L1_PROFILE_B_BRAND_CODE' },
        ),
      ],
      selection,
    );
    expect(gridText(s)).toContain('  a · needs-input · ask');
    expect(gridText(s)).not.toContain('needs-input (needs-input)');
    expect(s.counts.byKind).toEqual({ 'needs-input': 1, configuration: 1 });
  });
});

test('summary.md lists each failing item under the grid with its step and first mismatching values, as JUnit says them, capped at 30; a CI job summary of ❌ alone sent the reader to an artifact (reader audit of 2026-11-28)', () => {
  const swap = verdict('drift-a-rank-swap', all('pass'));
  swap.items[2] = {
    item: 5,
    verdict: 'fail',
    steps: [
      {
        name: '5.1 · aggregate exposure rate against the all-platform column',
        verdict: 'fail',
        mismatches: [
          {
            key: '澄风 · all-platform rate',
            html: 51.4,
            platform: 49.6,
            gap: 1.8,
            tolerance: '≤ 0.05 (7.1.2)',
            verdict: 'fail',
          },
        ],
        mismatchCount: 2,
      },
    ],
    notes: [],
  };
  const cut = verdict(
    'cut',
    { 3: 'pass', 7: 'fail' },
    { status: 'error', failureKind: 'interrupted', reason: 'SIGTERM' },
  );
  // Near miss: an item that failed only because its run was not checked is no failing item.
  const refused = verdict('refused', {}, { status: 'error', failureKind: 'platform', reason: 'HTTP 403' });
  refused.items = [{ item: 5, verdict: 'fail', steps: [], notes: ['run refused not checked: HTTP 403'] }];
  const summary = summarize([cut, swap, refused, verdict('good', all('pass'))], selection);
  const md = markdownOf(summary, failingItemLines(summary));
  const section = md.slice(md.indexOf('### Failing items'), md.indexOf('### Runs not checked'));
  expect(section.trim().split('\n')).toEqual([
    '### Failing items',
    '',
    '- run cut · item 7 · step 7.1 values: failed',
    '- run drift-a-rank-swap · item 5 · step 5.1 · aggregate exposure rate against the all-platform column: 澄风 · all-platform rate: HTML 51.4 · platform 49.6 · gap 1.8 · tolerance ≤ 0.05 (7.1.2) · and 1 more mismatch in this step',
  ]);
  // Thirty lines at most, the rest counted; none without a failing item.
  const many = Array.from({ length: 4 }, (_, i) => verdict(`run-${i}`, all('fail')));
  const capped = summarize(many, selection);
  const lines = markdownOf(capped, failingItemLines(capped)).split('\n');
  expect(lines.filter((l) => l.startsWith('- run run-'))).toHaveLength(30);
  expect(lines).toContain('- … and 10 more: junit.xml and the Allure report list every one');
  const clean = summarize([verdict('good', all('pass'))], selection);
  expect(markdownOf(clean, failingItemLines(clean))).not.toContain('### Failing items');
  // The night's summary.md, as the invocation writes it, has the section.
  const dir = tempDir('summary');
  writeVerdictFolder(dir, [{ file: 'swap.json', verdict: swap }], selection);
  expect(fs.readFileSync(path.join(dir, 'summary.md'), 'utf8')).toContain(
    '- run drift-a-rank-swap · item 5 · step 5.1 · aggregate exposure rate',
  );
});

test("a job over several nights exits with the worst night's code (3 > 2 > 1 > 0), never only the last one's", () => {
  expect(worstExitCode([1, 0])).toBe(1);
  expect(worstExitCode([0, 2, 1])).toBe(2);
  expect(worstExitCode([3, 0])).toBe(3);
  expect(worstExitCode([0, 0])).toBe(0);
  expect(worstExitCode([])).toBe(0);
});
