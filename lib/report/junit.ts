import { ITEM_NUMBERS, ITEM_TITLES, type ItemNumber } from '../rules/types';
import type { Mismatch, VerdictFile, VerdictItem } from '../schema/verdict';
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

function itemName(item: number): string {
  const title = ITEM_TITLES[item as ItemNumber];
  return title ? `item ${item} · ${title}` : `item ${item}`;
}

/**
 * A mismatch as the terminal, the Allure message and the verdict's table print it (`rowLine`):
 * 「」 around names, `(no value)`, `-` for no gap, the note after `·` (reader audit of 2026-11-26:
 * JUnit had a shape of its own, `platform —`, names bare, notes in brackets). Each text is made
 * safe and cut on its own; the rest of the line is rowLine's.
 */
function mismatchLine(m: Mismatch): string {
  const safe = (v: Mismatch['html'], max = 200) => (typeof v === 'string' ? safeText(v, max) : v);
  return rowLine({
    key: safeText(m.key, 200),
    html: safe(m.html),
    platform: safe(m.platform),
    gap: m.gap,
    tolerance: safeText(m.tolerance, 100),
    ...(m.note ? { note: safeText(m.note, 200) } : {}),
  });
}

function failureBody(item: VerdictItem): string {
  const lines: string[] = [];
  for (const step of item.steps.filter((s) => s.verdict === 'fail')) {
    const count = Math.max(step.mismatchCount, step.mismatches.length);
    lines.push(`✗ ${safeText(step.name, 200)}: ${count} mismatch${count === 1 ? '' : 'es'}`);
    const shown = step.mismatches.slice(0, LINES_PER_STEP);
    for (const m of shown) lines.push(`  ${mismatchLine(m)}`);
    if (count > shown.length) lines.push(`  … and ${count - shown.length} more`);
  }
  for (const note of item.notes) lines.push(`note: ${safeText(note, 500)}`);
  return lines.join('\n');
}

function failureMessage(item: VerdictItem): string {
  const failed = item.steps.filter((s) => s.verdict === 'fail');
  if (failed.length === 0)
    return `item ${item.item} failed${item.notes[0] ? `: ${safeText(item.notes[0], 300)}` : ''}`;
  return `item ${item.item}: ${failed.length} of ${item.steps.length} step${item.steps.length === 1 ? '' : 's'} failed: ${failed.map((s) => safeText(s.name, 100)).join('; ')}`;
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
  const error = (message: string) => `<error${attrs({ message, type })}>${xmlText(message)}</error>`;
  const kind =
    v.status === 'needs-input' ? v.status : `${v.status}${v.failureKind ? `, ${v.failureKind}` : ''}`;
  const notChecked = (n: number) => `run ${label} · item ${n}: run not checked (${kind}): ${reason}`;
  if (!checked) {
    cases.push({ name: 'collection', time: seconds(v.durationMs), body: error(reason!) });
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
      if (!checked && !item.steps.some((s) => s.verdict === 'fail')) {
        body = error(notChecked(n));
        errors++;
      } else {
        body = `<failure${attrs({ message: failureMessage(item), type: 'values differ' })}>${xmlText(failureBody(item))}</failure>`;
        failures++;
      }
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
