import { itemTestTitle, ITEMS } from '../rules/items';
import { ITEM_NUMBERS } from '../rules/types';
import type { Mismatch, VerdictFile, VerdictItem, VerdictStep } from '../schema/verdict';
import { redactText } from '../redaction/url';
import { failingItemsOf, kindText, type NightSummary } from './night';
import { rowLine } from './table';
import { safeText } from './text';

/**
 * JUnit XML of the verdict files (README.md § Reading the Allure report, deliver 4), for CI systems that read JUnit: one
 * `<testsuite>` per run, one `<testcase>` per item. An item that failed on checked data is a
 * `<failure>` listing its failing steps and mismatch lines; a run not checked is an `<error>`: its
 * `collection` test case carries the reason. Its items are what its verdict file says (an item
 * that ended before a stop keeps its pass or failure); one with no verdict is an `<error>`
 * repeating the reason. A complete selection lists all ten items of every run, as the grid and
 * the Allure report do; a partial one the items it recorded.
 */

/** Mismatch lines per step in a failure body; the verdict file holds the capped list, the count says the rest. */
const LINES_PER_STEP = 20;
/** Characters of a reason in a `message` attribute. */
const MESSAGE_MAX = 1000;

/**
 * Characters XML 1.0 forbids anywhere (even as character references): the C0 controls but tab,
 * newline and carriage return; lone surrogates; U+FFFE and U+FFFF.
 */
const INVALID_XML =
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Text content: invalid characters removed, markup characters escaped. */
export function xmlText(s: string): string {
  return s.replace(INVALID_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** An attribute value (double-quoted): also quotes, and tab/newline/CR as references so they survive. */
export function xmlAttr(s: string): string {
  return xmlText(s)
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;');
}

function attrs(values: Record<string, string | number | undefined>): string {
  return Object.entries(values)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${xmlAttr(String(v))}"`)
    .join('');
}

/**
 * An item's test case: named as its Playwright test is (the items table's `itemTestTitle`). Every
 * item number here is one of the table's: the verdict schema takes 3 to 12 only.
 */
function itemName(item: number): string {
  return itemTestTitle(ITEMS.find((i) => i.item === item)!);
}

/** Characters of a key, value or row note (the verdict file keeps 300 of each: never cut again). */
const VALUE_MAX = 300;
/** Characters of a note in a failure body; the verdict file keeps 2,000. */
const NOTE_MAX = 1000;
/** Notes of a failing step in a failure body, as the terminal shows them (fixtures/check.ts). */
const NOTES_PER_STEP = 10;
/** How far back from the bound a cut looks for the end of a number or a word. */
const CUT_BACK = 40;

/** Whether a cut between these two characters would split a number (`66.545|75998`, `1,2|34`). */
const inNumber = (before: string, after: string) => /[\d.,]/.test(before) && /\d/.test(after);
/** Whether it would split a word or a number (Latin letters, digits). */
const inWord = (before: string, after: string) => /[\w.,]/.test(before) && /\w/.test(after);

/** How much of a text `readableCut` reads to find its cut: what safeText reads for the same bound. */
const readLength = (max: number) => 4 * max + 1024;

/**
 * A text from the verdict made safe as `safeText` makes it, cut near `max` where no number is
 * split: at the end of a word within `CUT_BACK` characters when there is one, else at the end of a
 * number, else at `max` (`HTML 66.54575998… (97 more characters)` gave a value that was never in
 * the data). safeText leaves a text whole where the cut would not shorten it.
 */
function readableCut(s: string, max: number): string {
  // The text as safeText counts it: masked (a masked secret changes its length), then code points.
  const head = [...redactText(s.slice(0, readLength(max)))];
  if (head.length <= max && s.length <= readLength(max)) return safeText(s);
  // Within what was read: masking may have made the start shorter than `max` (a long `?token=…`).
  const last = Math.min(max, head.length - 1);
  const cutAt = (splits: (a: string, b: string) => boolean) => {
    for (let end = last; end > Math.max(0, max - CUT_BACK); end--)
      if (!splits(head[end - 1]!, head[end]!)) return end;
    return undefined;
  };
  return safeText(s, cutAt(inWord) ?? cutAt(inNumber) ?? max);
}

/**
 * A mismatch as the terminal, the Allure message and the verdict's table print it (`rowLine`):
 * 「」 around names, `(no value)`, `-` for no gap, the note after `·` (reader audit of 2026-11-26:
 * JUnit had a shape of its own, `platform —`, names bare, notes in brackets). Each text is made
 * safe and cut on its own; the rest of the line is rowLine's.
 */
function mismatchLine(m: Mismatch): string {
  const safe = (v: Mismatch['html']) => (typeof v === 'string' ? readableCut(v, VALUE_MAX) : v);
  return rowLine({
    key: readableCut(m.key, VALUE_MAX),
    html: safe(m.html),
    platform: safe(m.platform),
    gap: m.gap,
    tolerance: readableCut(m.tolerance, VALUE_MAX),
    ...(m.note ? { note: readableCut(m.note, VALUE_MAX) } : {}),
  });
}

const failingSteps = (item: VerdictItem) => item.steps.filter((s) => s.verdict === 'fail');
const mismatchesOf = (step: VerdictStep) => Math.max(step.mismatchCount, step.mismatches.length);
const mismatches = (n: number) => `${n} mismatch${n === 1 ? '' : 'es'}`;
const moreMismatches = (n: number) => `${n} more mismatch${n === 1 ? '' : 'es'}`;

/**
 * Each failing step as the terminal prints it (fixtures/check.ts `stepFailure`): its mismatch
 * lines, then its notes, which say where a value comes from (`HTML: values are counts (positive sum
 * 2908): share = value / 2908 × 100 (7.3.4)`, `「无时间」 removed`); then the item's notes.
 */
function failureBody(item: VerdictItem): string {
  const lines: string[] = [];
  for (const step of failingSteps(item)) {
    const count = mismatchesOf(step);
    lines.push(`✗ ${readableCut(step.name, VALUE_MAX)}: ${mismatches(count)}`);
    const shown = step.mismatches.slice(0, LINES_PER_STEP);
    for (const m of shown) lines.push(`  ${mismatchLine(m)}`);
    if (count > shown.length) lines.push(`  … and ${count - shown.length} more`);
    const notes = step.notes ?? [];
    for (const note of notes.slice(0, NOTES_PER_STEP)) lines.push(`  note: ${readableCut(note, NOTE_MAX)}`);
    if (notes.length > NOTES_PER_STEP) lines.push(`  … and ${notes.length - NOTES_PER_STEP} more notes`);
  }
  for (const note of item.notes) lines.push(`note: ${readableCut(note, NOTE_MAX)}`);
  return lines.join('\n');
}

/**
 * The `message` attribute, all that many CI screens show of a failure: the run, the item, the
 * first failing step and its first mismatch as every failure message prints it (`run X · item 3 ·
 * step 露出率 exposure_rate: HTML 29.64 · platform 29.8 · gap 0.2 · tolerance …`), the key left
 * out when it is the step's name; then what else failed.
 */
function failureMessage(label: string, item: VerdictItem): string {
  const where = `run ${label} · item ${item.item}`;
  const failed = failingSteps(item);
  const first = failed[0];
  if (!first) return `${where} failed${item.notes[0] ? `: ${readableCut(item.notes[0], VALUE_MAX)}` : ''}`;
  const name = readableCut(first.name, 200);
  const row = first.mismatches[0];
  let what: string;
  if (row) {
    const line = mismatchLine(row);
    const key = `${readableCut(row.key, VALUE_MAX)}: `;
    what = row.key === first.name && line.startsWith(key) ? line.slice(key.length) : line;
  } else what = first.notes?.[0] ? readableCut(first.notes[0], VALUE_MAX) : 'failed';
  const more = [
    ...(mismatchesOf(first) > 1 ? [`and ${moreMismatches(mismatchesOf(first) - 1)} in this step`] : []),
    ...(failed.length > 1
      ? [
          `and ${failed.length - 1} more failing step${failed.length === 2 ? '' : 's'}: ${failed
            .slice(1, 4)
            .map((s) => readableCut(s.name, 100))
            .join('; ')}${failed.length > 4 ? '; …' : ''}`,
        ]
      : []),
  ];
  return `${where} · step ${name}: ${what}${more.map((m) => ` · ${m}`).join('')}`;
}

/**
 * One line per item that failed on compared data, as JUnit's `message` says it (`run X · item 5 ·
 * step 5.1 · …: 澄风 · all-platform rate: HTML 51.4 · platform 49.6 · gap 1.8 · tolerance ≤ 0.05
 * (7.1.2) · and 1 more mismatch in this step`), in grid order and with the grid's labels: the
 * failing items of checked runs and those a stop left in runs not checked whole
 * (`failingItemsOf`). summary.md lists them under its grid.
 */
export function failingItemLines(summary: Pick<NightSummary, 'verdicts' | 'grid'>): string[] {
  return summary.verdicts.flatMap((v, n) =>
    failingItemsOf(v)
      .sort((a, b) => a.item - b.item)
      .map((item) => failureMessage(summary.grid[n]?.shown ?? safeText(v.run.label, 200), item)),
  );
}

interface Case {
  name: string;
  time: number;
  body: string;
}

function seconds(ms: number | undefined): number {
  return Math.round(ms ?? 0) / 1000;
}

function suiteOf(v: VerdictFile): { xml: string; tests: number; failures: number; errors: number } {
  const label = safeText(v.run.label, 200);
  const cases: Case[] = [];
  let failures = 0;
  let errors = 0;
  const recorded = new Map(v.items.map((i) => [i.item, i]));
  const checked = v.status === 'checked';
  /** The items the grid marks FAIL (values differ); another failed item failed with its run's reason. */
  const failing = new Set(failingItemsOf(v));
  // A run not checked of a complete selection (the invocation was meant to run every item) lists
  // all ten items, as the grid and the Allure report do: a run stopped during item 4 gave JUnit 2
  // test cases where Allure had 11. A partial selection (`--grep item5`) lists the items it
  // recorded, since nothing says which others it selected. (A checked run of a complete selection
  // has all ten in its verdict: lib/report/verdict.ts makes it `error` otherwise.)
  const numbers = [
    ...new Set([...(v.selection.complete && !checked ? ITEM_NUMBERS : []), ...recorded.keys()]),
  ].sort((a, b) => a - b);
  const reason = checked ? undefined : safeText(v.reason ?? '(no reason given)', MESSAGE_MAX);
  const type = v.failureKind ?? v.status;
  const error = (message: string, text = message) =>
    `<error${attrs({ message, type })}>${xmlText(text)}</error>`;
  const notChecked = (n: number) => `run ${label} · item ${n}: run not checked (${kindText(v)}): ${reason}`;
  if (!checked) {
    // Named as every failure message is: the run, then the reason (its items say the same).
    const message = `run ${label} · collection: run not checked (${kindText(v)}): ${reason}`;
    cases.push({ name: 'collection', time: seconds(v.durationMs), body: error(message, reason) });
    errors++;
  }
  for (const n of numbers) {
    const item = recorded.get(n);
    let body = '';
    if (!item) {
      // No verdict: the run was stopped before or during this item, or its collection failed.
      body = error(notChecked(n));
      errors++;
    } else if (item.verdict === 'fail') {
      // Its verdict, as the grid shows it. A failed item of a run not checked with no failing step
      // failed with the run's reason (an item selected alone): an error, not values that differ.
      if (!failing.has(item)) {
        body = error(notChecked(n));
        errors++;
      } else {
        body = `<failure${attrs({ message: failureMessage(label, item), type: 'values differ' })}>${xmlText(failureBody(item))}</failure>`;
        failures++;
      }
    } else if (item.passBy?.length) {
      // A pass that holds only by a special clause is `pass*` in the grid: said here too.
      const clauses = item.passBy.map((c) => safeText(c, 200)).join(', ');
      body = `<system-out>${xmlText(`pass*: passed by a special clause: ${clauses}`)}</system-out>`;
    }
    cases.push({ name: itemName(n), time: seconds(item?.durationMs), body });
  }
  const xmlCases = cases.map(
    (c) =>
      `    <testcase${attrs({ name: c.name, classname: label, time: c.time })}${c.body ? `>\n      ${c.body}\n    </testcase>` : ' />'}`,
  );
  const properties = [
    ['status', v.status],
    ['profile', v.run.profile],
    ['reportType', v.run.reportType ?? ''],
    ['batchDate', v.run.batchDate ?? ''],
    ['dataSource', v.run.dataSource],
    ['suite', `${v.suite.name} ${v.suite.version}`],
  ].map(([name, val]) => `      <property${attrs({ name, value: safeText(val ?? '', 200) })} />`);
  const head = `  <testsuite${attrs({
    name: label,
    tests: cases.length,
    failures,
    errors,
    skipped: 0,
    time: seconds(v.durationMs),
    timestamp: v.generatedAt,
  })}>`;
  const xml = [
    head,
    '    <properties>',
    ...properties,
    '    </properties>',
    ...xmlCases,
    '  </testsuite>',
  ].join('\n');
  return { xml, tests: cases.length, failures, errors };
}

/** The JUnit XML of these verdicts: well-formed XML 1.0 whatever the labels, keys and reasons hold. */
export function junitXml(verdicts: VerdictFile[]): string {
  const suites = verdicts.map(suiteOf);
  const sum = (k: 'tests' | 'failures' | 'errors') => suites.reduce((n, s) => n + s[k], 0);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attrs({ name: 'L1 report checks', tests: sum('tests'), failures: sum('failures'), errors: sum('errors') })}>`,
    ...suites.map((s) => s.xml),
    '</testsuites>',
    '',
  ].join('\n');
}
