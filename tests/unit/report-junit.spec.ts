import { expect, test } from './test-type';
import { junitXml } from '../../lib/report/junit';
import type { VerdictFile } from '../../lib/schema/verdict';
import { fakeVerdict } from './fakes/verdicts';

const verdict = (label: string, extra: Partial<VerdictFile> = {}) => fakeVerdict(label, {}, extra);

/** A step that passed, as a verdict file holds it. */
const passStep = (name: string) => ({ name, verdict: 'pass' as const, mismatches: [], mismatchCount: 0 });

/** A failing item of one passing and one failing step. */
const failingItem = <S extends { name: string }>(item: number, passed: string, failed: S) => ({
  item,
  verdict: 'fail' as const,
  steps: [passStep(passed), failed],
  notes: [] as string[],
});

const passing = (item: number) => ({
  item,
  verdict: 'pass' as const,
  steps: [passStep(`${item}.1 values`)],
  notes: [],
});

const EVIL = 'a<b>&c"d\'e\u001b[2J\r\n✓ 1 passed\u0000\u0008\ufffe\ud800]]>';

const failing = failingItem(5, '5.1 count', {
  name: '5.2 rank and name of the top 10',
  verdict: 'fail' as const,
  mismatches: [
    {
      key: `rank 2 ${EVIL}`,
      html: '森氧科技',
      platform: 'Other & Co <x>',
      gap: 1.76,
      tolerance: '≤ 0.05',
      verdict: 'fail' as const,
      note: 'tie swap',
    },
  ],
  mismatchCount: 3,
});

// ---------------------------------------------------------------------------------------------
// A small strict XML 1.0 reader: throws on anything not well-formed, returns the element tree.

interface El {
  name: string;
  attrs: Record<string, string>;
  children: El[];
  text: string;
}

const VALID_CHARS = /^[\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]*$/u;
const ENTITY = /^&(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/;

function decode(raw: string, where: string): string {
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === '<') throw new Error(`raw < in ${where}`);
    if (c !== '&') {
      out += c;
      continue;
    }
    const m = ENTITY.exec(raw.slice(i));
    if (!m) throw new Error(`bare & in ${where}: ${raw.slice(i, i + 10)}`);
    const e = m[0].slice(1, -1);
    out += e.startsWith('#x')
      ? String.fromCodePoint(parseInt(e.slice(2), 16))
      : e.startsWith('#')
        ? String.fromCodePoint(Number(e.slice(1)))
        : { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }[e]!;
    i += m[0].length - 1;
  }
  return out;
}

function parseXml(xml: string): El {
  if (!VALID_CHARS.test(xml)) throw new Error('character not allowed in XML 1.0');
  let pos = 0;
  const prolog = /^<\?xml[^?]*\?>\s*/.exec(xml);
  if (prolog) pos = prolog[0].length;
  const name = /[A-Za-z_][\w.-]*/y;
  const element = (): El => {
    if (xml[pos] !== '<') throw new Error(`expected < at ${pos}`);
    pos++;
    name.lastIndex = pos;
    const n = name.exec(xml);
    if (!n) throw new Error(`bad tag name at ${pos}`);
    pos += n[0].length;
    const el: El = { name: n[0], attrs: {}, children: [], text: '' };
    for (;;) {
      const ws = /^\s*/.exec(xml.slice(pos))![0];
      pos += ws.length;
      if (xml.startsWith('/>', pos)) {
        pos += 2;
        return el;
      }
      if (xml[pos] === '>') {
        pos++;
        break;
      }
      if (!ws) throw new Error(`expected space before attribute at ${pos}`);
      const a = /^([A-Za-z_][\w.-]*)="([^"]*)"/.exec(xml.slice(pos));
      if (!a) throw new Error(`bad attribute at ${pos}: ${xml.slice(pos, pos + 20)}`);
      if (a[1]! in el.attrs) throw new Error(`duplicate attribute ${a[1]}`);
      el.attrs[a[1]!] = decode(a[2]!, `attribute ${a[1]}`);
      pos += a[0].length;
    }
    for (;;) {
      const next = xml.indexOf('<', pos);
      if (next < 0) throw new Error(`unclosed <${el.name}>`);
      el.text += decode(xml.slice(pos, next), `text of <${el.name}>`);
      pos = next;
      if (xml.startsWith('</', pos)) {
        const close = `</${el.name}>`;
        if (!xml.startsWith(close, pos)) throw new Error(`mismatched close at ${pos}, expected ${close}`);
        pos += close.length;
        return el;
      }
      el.children.push(element());
    }
  };
  const root = element();
  if (xml.slice(pos).trim()) throw new Error('content after the root element');
  return root;
}

const all = (el: El, name: string): El[] => [
  ...(el.name === name ? [el] : []),
  ...el.children.flatMap((c) => all(c, name)),
];

// ---------------------------------------------------------------------------------------------

test('the reader itself rejects what is not well-formed', () => {
  expect(() => parseXml('<a><b></a>')).toThrow();
  expect(() => parseXml('<a x="1 & 2"/>')).toThrow();
  expect(() => parseXml('<a>\u001b</a>')).toThrow();
  expect(parseXml('<a x="&lt;&#10;">t&amp;</a>')).toMatchObject({ attrs: { x: '<\n' }, text: 't&' });
});

test('one testsuite per run, one testcase per item named with its title, in item order', () => {
  const xml = junitXml([
    verdict('run-a', { items: [passing(12), passing(3)] }),
    verdict('run-b', { items: [passing(4)] }),
  ]);
  const root = parseXml(xml);
  expect(root.name).toBe('testsuites');
  expect(root.attrs).toMatchObject({ tests: '3', failures: '0', errors: '0' });
  const suites = all(root, 'testsuite');
  expect(suites.map((s) => s.attrs.name)).toEqual(['run-a', 'run-b']);
  expect(all(suites[0]!, 'testcase').map((c) => c.attrs.name)).toEqual([
    'item 3 · KPI cards, aggregate',
    'item 12 · related sources: title at each ordinal',
  ]);
  expect(all(root, 'failure')).toHaveLength(0);
});

test('a pass that holds only by a special clause (pass* in the grid) says its clauses in <system-out>; a plain pass says nothing', () => {
  const byClause = { ...passing(5), passBy: ['tie swap (spec 9.5.5) ×2'] };
  const root = parseXml(junitXml([verdict('run-a', { items: [passing(3), byClause] })]));
  const [plain, starred] = all(root, 'testcase');
  expect(all(plain!, 'system-out')).toHaveLength(0);
  expect(all(starred!, 'system-out').map((e) => e.text)).toEqual([
    'pass*: passed by a special clause: tie swap (spec 9.5.5) ×2',
  ]);
  expect(root.attrs).toMatchObject({ tests: '2', failures: '0', errors: '0' });
});

test('a failing item is a <failure> with the step names and mismatch lines, in the shape every failure message prints them (reader audit: JUnit had a shape of its own)', () => {
  const root = parseXml(junitXml([verdict('run-a', { items: [passing(3), failing] })]));
  const failures = all(root, 'failure');
  expect(failures).toHaveLength(1);
  expect(all(root, 'error')).toHaveLength(0);
  expect(all(root, 'testsuite')[0]!.attrs).toMatchObject({ tests: '2', failures: '1', errors: '0' });
  const f = failures[0]!;
  expect(f.attrs.message).toContain('5.2 rank and name of the top 10');
  expect(f.text).toContain('✗ 5.2 rank and name of the top 10: 3 mismatches');
  expect(f.text).toContain(
    'HTML 「森氧科技」 · platform 「Other & Co <x>」 · gap 1.76 · tolerance ≤ 0.05 · tie swap',
  );
  const m = { key: 'k', html: null, platform: 'x', gap: null, tolerance: 't', verdict: 'fail' as const };
  const lone = verdict('run-b', {
    items: [{ ...failing, steps: [{ ...failing.steps[1]!, mismatches: [m], mismatchCount: 1 }] }],
  });
  expect(all(parseXml(junitXml([lone])), 'failure')[0]!.text).toContain(
    'k: HTML (no value) · platform 「x」 · gap - · tolerance t',
  );
  expect(f.text).toContain('… and 2 more');
  expect(f.text).not.toContain('5.1 count');
});

test('the message attribute names the run, the item, the failing step and its first mismatching values, as every failure message does (many CI screens show only it)', () => {
  const kpi = failingItem(3, '品牌露出率 brand_exposure_rate', {
    name: '露出率 exposure_rate',
    verdict: 'fail' as const,
    mismatches: [
      {
        key: '露出率 exposure_rate',
        html: 29.64,
        platform: 29.8,
        gap: 0.2,
        tolerance: '≤ 0.1 after round(x,1) (9.3)',
        verdict: 'fail' as const,
      },
    ],
    mismatchCount: 1,
  });
  const messages = (v: VerdictFile) => all(parseXml(junitXml([v])), 'failure').map((f) => f.attrs.message);
  // The key is the step's name: said once.
  expect(messages(verdict('drift-b-kpi-gap-02', { items: [kpi] }))).toEqual([
    'run drift-b-kpi-gap-02 · item 3 · step 露出率 exposure_rate: HTML 29.64 · platform 29.8 · gap 0.2 · tolerance ≤ 0.1 after round(x,1) (9.3)',
  ]);
  // Another key is named; the other failing rows and steps are counted.
  const twoSteps = { ...failing, steps: [...failing.steps, { ...kpi.steps[1]!, name: '5.3 names' }] };
  expect(messages(verdict('run-a', { items: [twoSteps] }))).toEqual([
    'run run-a · item 5 · step 5.2 rank and name of the top 10: rank 2 a<b>&c"d\'e\\x1b[2J\\x0d\\x0a✓ 1 passed\\x00\\x08]]>: HTML 「森氧科技」 · platform 「Other & Co <x>」 · gap 1.76 · tolerance ≤ 0.05 · tie swap · and 2 more mismatches in this step · and 1 more failing step: 5.3 names',
  ]);
  // A failing step without rows says its first note; an item without a failing step its first note.
  const noRows = {
    ...kpi,
    steps: [{ ...kpi.steps[1]!, mismatches: [], mismatchCount: 0, notes: ['the platform has no row all'] }],
  };
  expect(messages(verdict('run-c', { items: [noRows] }))).toEqual([
    'run run-c · item 3 · step 露出率 exposure_rate: the platform has no row all',
  ]);
  expect(messages(verdict('run-d', { items: [{ ...kpi, steps: [], notes: ['the rule threw'] }] }))).toEqual([
    'run run-d · item 3 failed: the rule threw',
  ]);
});

test('the failure body prints the notes of each failing step, which say where the HTML value comes from, and cuts no note or value in the middle of a number', () => {
  const shareNotes = [
    'HTML: values are counts (positive sum 2908): share = value / 2908 × 100 (7.3.4)',
    'platform: values are percentages (spec 2.2), printed as they are; 「无时间」 removed',
  ];
  const rowNote = `re-dividing the HTML percentages by their sum (HTML 66.54575998102 · platform 66.4) ${'explains less than 0.1 of the gap; '.repeat(5)}`;
  const share = {
    item: 8,
    verdict: 'fail' as const,
    steps: [
      {
        name: 'aggregate (all)',
        verdict: 'fail' as const,
        mismatches: [
          {
            key: 'share 「近7天」',
            html: 23.42,
            platform: 21.1,
            gap: 2.32,
            tolerance: '≤ 0.05 (7.1.2)',
            verdict: 'fail' as const,
            note: rowNote,
          },
        ],
        mismatchCount: 1,
        notes: shareNotes,
      },
      { name: 'deepseek', verdict: 'pass' as const, mismatches: [], mismatchCount: 0, notes: ['not shown'] },
    ],
    notes: ['legend: at most 8 entries by share, highest first (7.3.1)'],
  };
  const body = all(parseXml(junitXml([verdict('drift-a-no-time-kept', { items: [share] })])), 'failure')[0]!
    .text;
  for (const note of shareNotes) expect(body).toContain(`  note: ${note}`);
  expect(body).toContain('note: legend: at most 8 entries by share');
  expect(body).not.toContain('not shown');
  // A row note of 250 characters is whole (it was cut at 200, inside 66.54575998102).
  expect(rowNote.length).toBeGreaterThan(200);
  expect(body).toContain(rowNote);

  // A long note is cut, near 1,000 characters, between words; a note just over the bound is not.
  const long = `${'(HTML 66.545759981234 · platform 66.5) '.repeat(60)}end`;
  const barely = `${'1234567890'.repeat(100)}.123`;
  const notes = all(
    parseXml(junitXml([verdict('run-b', { items: [{ ...share, notes: [long, barely] }] })])),
    'failure',
  )[0]!.text.split('\n');
  const cut = notes.find((l) => l.startsWith('note: (HTML'))!;
  const m = /^note: (.*)… \((\d+) more characters\)$/.exec(cut)!;
  expect(m).not.toBeNull();
  expect(m[1]!.length).toBeGreaterThan(950);
  expect(m[1]!.length).toBeLessThanOrEqual(1000);
  expect(long.startsWith(m[1]!)).toBe(true);
  expect(m[1]).toMatch(/(?:\)|·|platform) ?$/); // ends at a word's end, never inside 66.545…
  expect(Number(m[2])).toBeGreaterThan(100);
  expect(notes).toContain(`note: ${barely}`);
});

test('a run not checked: a "collection" <error> with the reason, and its items as <error> too', () => {
  const reason = 'GET /api/x: HTTP 403: the account of this run may not read this company';
  const selected = verdict('run-c', { status: 'error', reason, failureKind: 'platform' });
  const root = parseXml(junitXml([selected]));
  const cases = all(root, 'testcase');
  expect(cases[0]!.attrs.name).toBe('collection');
  // The message names the run, as every failure message does (many CI screens show only it).
  expect(all(cases[0]!, 'error')[0]!.attrs).toMatchObject({
    message: `run run-c · collection: run not checked (error, platform): ${reason}`,
    type: 'platform',
  });
  // No item recorded, the whole run selected: all ten items are errors.
  expect(cases).toHaveLength(11);
  expect(all(root, 'error')).toHaveLength(11);
  expect(all(root, 'failure')).toHaveLength(0);
  expect(all(cases[5]!, 'error')[0]!.attrs.message).toContain(reason);

  const recorded = verdict('run-d', {
    status: 'needs-input',
    reason: 'spec 9.1.2: ask',
    items: [{ ...passing(5), verdict: 'fail' }],
    selection: { filters: ['item5'], shard: null, complete: false },
  });
  const cases2 = all(parseXml(junitXml([recorded])), 'testcase');
  expect(cases2.map((c) => c.attrs.name)).toEqual(['collection', 'item 5 · industry exposure ranking']);
});

test('a run stopped in the middle of its items: all ten items, those that ended with their own verdict, the others <error> with the reason (the grid and Allure count 11 test cases a run)', () => {
  const reason =
    'the invocation was interrupted by SIGTERM while item 4 ran: items 4, 5, 6, 7, 8, 9, 10, 11, 12 did not run (the items in the verdict are those that finished)';
  const passedByClause = { ...passing(3), passBy: ['integer print (spec 9.3.4) ×1'] };
  const stopped = verdict('stopped-mid-items', {
    status: 'error',
    failureKind: 'interrupted',
    reason,
    items: [passedByClause],
  });
  const failedThenStopped = verdict('failed-then-stopped', {
    status: 'error',
    failureKind: 'interrupted',
    reason,
    items: [failing],
  });
  const root = parseXml(junitXml([stopped, failedThenStopped]));
  const [first, second] = all(root, 'testsuite');
  const cases = all(first!, 'testcase');
  expect(cases.map((c) => c.attrs.name)).toEqual([
    'collection',
    'item 3 · KPI cards, aggregate',
    ...[4, 5, 6, 7, 8, 9, 10, 11, 12].map((n) => expect.stringMatching(new RegExp(`^item ${n} · `))),
  ]);
  // Item 3 ended and passed (`pass*` in the grid): a passing test case, as its verdict says.
  expect(cases[1]!.children.map((c) => c.name)).toEqual(['system-out']);
  for (const c of cases.slice(2)) {
    const e = all(c, 'error')[0]!;
    expect(e.attrs.type).toBe('interrupted');
    expect(e.attrs.message).toContain(reason);
    expect(e.attrs.message).toMatch(/^run stopped-mid-items · item \d+: /);
  }
  expect(first!.attrs).toMatchObject({ tests: '11', failures: '0', errors: '10' });
  // An item that failed on its values before the stop keeps its <failure>.
  expect(second!.attrs).toMatchObject({ tests: '11', failures: '1', errors: '10' });
  expect(all(second!, 'failure')).toHaveLength(1);
  expect(root.attrs).toMatchObject({ tests: '22', failures: '1', errors: '20' });

  // A partial selection lists what it recorded, nothing more.
  const partial = verdict('partial', {
    status: 'error',
    failureKind: 'interrupted',
    reason,
    items: [passing(5)],
    selection: { filters: ['item5'], shard: null, complete: false },
  });
  expect(all(parseXml(junitXml([partial])), 'testcase').map((c) => c.attrs.name)).toEqual([
    'collection',
    'item 5 · industry exposure ranking',
  ]);
});

test("in a run not checked, an item that failed on its values is a <failure> whatever its other steps; one that failed with no failing step is an <error> with the run's reason", () => {
  const reason = 'the invocation was interrupted by SIGTERM while item 6 ran';
  // Item 5 failed on its one step; item 4 failed with every step passing (its test timed out).
  const onlyFailing = { ...failing, steps: [failing.steps[1]!] };
  const noFailingStep = {
    item: 4,
    verdict: 'fail' as const,
    steps: [passStep('4.1 values')],
    notes: ['the item test ended timedOut'],
  };
  const cut = verdict('cut', {
    status: 'error',
    failureKind: 'interrupted',
    reason,
    items: [noFailingStep, onlyFailing],
  });
  const cases = all(parseXml(junitXml([cut])), 'testcase');
  const named = (n: number) => cases.find((c) => c.attrs.name!.startsWith(`item ${n} · `))!;
  expect(named(5).children.map((c) => c.name)).toEqual(['failure']);
  expect(all(named(5), 'failure')[0]!.attrs.message).toContain('5.2 rank and name of the top 10');
  expect(named(4).children.map((c) => c.name)).toEqual(['error']);
  expect(all(named(4), 'error')[0]!.attrs).toMatchObject({
    type: 'interrupted',
    message: `run cut · item 4: run not checked (error, interrupted): ${reason}`,
  });
});

test('every text is escaped, characters invalid in XML 1.0 removed, control characters shown', () => {
  const xml = junitXml([
    verdict(EVIL, { items: [failing] }),
    verdict(`down ${EVIL}`, { status: 'error', reason: EVIL }),
  ]);
  const root = parseXml(xml); // throws when not well-formed
  const suites = all(root, 'testsuite');
  expect(suites[0]!.attrs.name).toContain('a<b>&c"d\'e\\x1b[2J\\x0d\\x0a✓ 1 passed');
  // eslint-disable-next-line no-control-regex -- looking for control characters
  expect(suites[0]!.attrs.name).not.toMatch(/[\u0000-\u001f]/);
  expect(all(suites[1]!, 'error')[0]!.attrs.message).toContain('\\x1b[2J');
  expect(all(root, 'failure')[0]!.text).toContain('rank 2 a<b>&c');
  expect(xml).not.toContain(']]>');
  // eslint-disable-next-line no-control-regex -- looking for characters invalid in XML
  expect(xml).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/);
});

test('no verdict gives an empty, well-formed document', () => {
  expect(parseXml(junitXml([])).attrs.tests).toBe('0');
});

test('times are in seconds, as JUnit readers take them: the run its tests took, each item its own (README.md: "`junit.xml` (one test case per item …)")', () => {
  const root = parseXml(
    junitXml([verdict('run-a', { durationMs: 1234, items: [{ ...passing(3), durationMs: 2500 }] })]),
  );
  expect(all(root, 'testsuite')[0]!.attrs.time).toBe('1.234');
  expect(all(root, 'testcase')[0]!.attrs.time).toBe('2.5');
});
