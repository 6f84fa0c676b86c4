import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from './test-type';
import { HOSTILE_SCENARIOS, NIGHTLY_SCENARIOS, SCENARIOS } from '../../demo/scenarios';
import { ROOT } from '../../lib/run/settings';

/**
 * docs/claims.md lists every self-test claim (the title of a test in tests/selftest/*.spec.ts) under
 * its file's section, with what proves it, and every claim a self-test once proved that is proven
 * elsewhere now, as references "in `file`: “title”". Issue "Compute once" asked for the list (no
 * self-test claim lost); this test keeps it true without starting Playwright: it reads the spec
 * files' source and the document.
 *
 * How titles are read: the first argument of `test(…)`, `test.only`, `test.skip`, `test.fixme` or
 * `test.fail`, when it is a string literal ('…', "…" or `…`, escapes such as \' read as the code
 * means them). `test.describe` and `test.step` titles are not tests. A `test(` whose first argument
 * is no literal (a variable, a concatenation) is reported, so a title built so fails this test
 * rather than being left out of it. A template literal's `${…}` parts are read as "any text": a
 * quoted title in the document matches it when it fits that pattern (one instance is enough to list
 * it). A `${…}` holding a string with a brace is not read correctly; no test title has one.
 */

const DOC = 'docs/claims.md';
const SELFTESTS = 'tests/selftest';
const MOVED = 'Claims moved out of the self-tests';
const IN_PART = 'Proven in part only';

/** A test title as the code declares it; `pattern` when it is a template literal with `${…}`. */
interface Title {
  text: string;
  pattern?: RegExp;
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v', 0: '\0' };
/** What the escapes of a string literal's body stand for. */
function cooked(raw: string): string {
  return raw.replace(/\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|\r\n|[\s\S])/g, (_, e: string) =>
    e.startsWith('u{')
      ? String.fromCodePoint(parseInt(e.slice(2, -1), 16))
      : /^[ux][0-9a-fA-F]/.test(e)
        ? String.fromCharCode(parseInt(e.slice(1), 16))
        : e === '\n' || e === '\r\n'
          ? ''
          : (ESCAPES[e] ?? e),
  );
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The string literal starting at `start` of `src`, or undefined when none starts there. */
function literalAt(src: string, start: number): Title | undefined {
  const quote = src[start];
  if (quote !== "'" && quote !== '"' && quote !== '`') return undefined;
  const parts: string[] = []; // cooked text between `${…}` parts
  let from = start + 1;
  let i = from;
  while (i < src.length) {
    const c = src[i];
    if (c === '\\') i += 2;
    else if (c === quote) {
      parts.push(cooked(src.slice(from, i)));
      const text = quote === '`' ? src.slice(start + 1, i) : parts[0]!;
      return parts.length === 1
        ? { text: parts[0]! }
        : { text, pattern: new RegExp(`^${parts.map(escapeRegExp).join('[\\s\\S]+?')}$`) };
    } else if (quote === '`' && c === '$' && src[i + 1] === '{') {
      parts.push(cooked(src.slice(from, i)));
      let depth = 1;
      i += 2;
      while (i < src.length && depth > 0) {
        if (src[i] === '{') depth++;
        else if (src[i] === '}') depth--;
        i++;
      }
      from = i;
    } else if (quote !== '`' && (c === '\n' || c === '\r')) return undefined;
    else i++;
  }
  return undefined;
}

/** The titles of the tests `src` declares, and the `test(` calls whose title is no literal. */
function testTitles(src: string): { titles: Title[]; unreadable: string[] } {
  const titles: Title[] = [];
  const unreadable: string[] = [];
  // Not `.test(` (RegExp.prototype.test) nor a longer name; `test.describe(`, `test.step(` never match.
  const call = /(?<![\w$.])test(\.(?:only|skip|fixme|fail))?\(\s*/g;
  for (let m = call.exec(src); m; m = call.exec(src)) {
    const title = literalAt(src, m.index + m[0].length);
    if (title) titles.push(title);
    // test.skip(condition, reason) and test.fail() inside a test declare nothing.
    else if (!m[1]) {
      const line = src.slice(0, m.index).split('\n').length;
      unreadable.push(`line ${line}: ${src.slice(m.index, m.index + 60).split('\n')[0]}`);
    }
  }
  return { titles, unreadable };
}

const matches = (title: Title, quoted: string) =>
  title.pattern ? title.pattern.test(quoted) : title.text === quoted;

/** One reference "in `file`: “title”" (several titles may follow, joined by commas or "and"). */
interface Reference {
  file: string;
  titles: string[];
  /** Where it is in the whitespace-normalised text it was found in. */
  start: number;
  end: number;
}

const QUOTED = /“([^”]*)”/g;
const quotedIn = (text: string) => [...text.matchAll(QUOTED)].map((m) => m[1]!);

function referencesIn(text: string): Reference[] {
  const reference = /\bin `([^`\s]+)`:((?:\s*(?:,|;|and|, and)?\s*“[^”]*”)+)/g;
  return [...text.matchAll(reference)].map((m) => ({
    file: m[1]!,
    titles: quotedIn(m[2]!),
    start: m.index,
    end: m.index + m[0].length,
  }));
}

/** Scenario labels the text says the demo sanity stage walks: "… (`demo/check-demo.ts`), which walks `a`, `b` and `c`". */
function demoSanityLabels(text: string): string[] {
  const walks = /demo sanity stage \(`demo\/check-demo\.ts`\), which walks ((?:`[\w-]+`(?:,? and |, )?)+)/g;
  return [...text.matchAll(walks)].flatMap((m) => [...m[1]!.matchAll(/`([\w-]+)`/g)].map((l) => l[1]!));
}

/** The document's `## ` sections (a `### ` stays in its section), each with its text on one line. */
function sections(doc: string): { heading: string; text: string }[] {
  const found: { heading: string; text: string }[] = [];
  for (const line of doc.split('\n')) {
    if (line.startsWith('## ')) found.push({ heading: line.slice(3).trim(), text: '' });
    else if (found.length > 0) found[found.length - 1]!.text += `${line}\n`;
  }
  return found;
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ');
/** The text with the references cut out, so what stays quoted is meant as a title of its own. */
const withoutReferences = (text: string) =>
  referencesIn(text)
    .reverse()
    .reduce((t, r) => t.slice(0, r.start) + t.slice(r.end), text);
/** Top-level list items ("- " at the start of a line) of a section, each on one line. */
const listItems = (text: string) =>
  text
    .split(/\n(?=- )/)
    .filter((chunk) => chunk.startsWith('- '))
    .map((chunk) => oneLine(chunk.split(/\n(?=#)/)[0]!));

const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const exists = (file: string) => fs.existsSync(path.join(ROOT, file));
const selftestFiles = () =>
  fs
    .readdirSync(path.join(ROOT, SELFTESTS))
    .filter((f) => f.endsWith('.spec.ts'))
    .sort()
    .map((f) => `${SELFTESTS}/${f}`);

/** What is wrong with the document's self-test sections: titles missing, titles no longer there. */
function sectionProblems(
  doc: string,
  files: string[],
  source: (file: string) => string | undefined,
): string[] {
  const problems: string[] = [];
  const byFile = new Map<string, string>();
  for (const { heading, text } of sections(doc)) {
    const file = /`(tests\/selftest\/[^`]+\.spec\.ts)`/.exec(heading)?.[1];
    if (!file) continue;
    if (!files.includes(file)) problems.push(`${DOC} has a section for ${file}, which is no self-test file`);
    byFile.set(file, withoutReferences(oneLine(text)));
  }
  for (const file of files) {
    const { titles, unreadable } = testTitles(source(file) ?? '');
    problems.push(...unreadable.map((u) => `${file} ${u}: a test title that is no string literal`));
    const text = byFile.get(file);
    if (text === undefined) {
      problems.push(`${DOC} has no section "## \`${file}\`"`);
      continue;
    }
    const quoted = quotedIn(text);
    for (const title of titles)
      if (!quoted.some((q) => matches(title, q)))
        problems.push(`${DOC} § ${file} does not list “${title.text}”`);
    for (const q of quoted)
      if (!titles.some((t) => matches(t, q)))
        problems.push(`${DOC} § ${file} lists “${q}”, which ${file} has no test of`);
  }
  return problems;
}

/** What is wrong with the document's references and its moved claims. */
function referenceProblems(doc: string, source: (file: string) => string | undefined): string[] {
  const problems: string[] = [];
  for (const ref of referencesIn(oneLine(doc))) {
    const src = ref.file.endsWith('.spec.ts') ? source(ref.file) : undefined;
    if (src === undefined) {
      problems.push(`${DOC} refers to ${ref.file}, which is no test file of the repository`);
      continue;
    }
    const { titles } = testTitles(src);
    for (const quoted of ref.titles)
      if (!titles.some((t) => matches(t, quoted)))
        problems.push(`${DOC} refers to “${quoted}” in ${ref.file}, which has no such test`);
  }
  const moved = sections(doc).find((s) => s.heading === MOVED);
  if (!moved) return [...problems, `${DOC} has no section "## ${MOVED}"`];
  const loose = quotedIn(withoutReferences(oneLine(moved.text)));
  problems.push(
    ...loose.map((q) => `${DOC} § ${MOVED} quotes “${q}” without the file it is in ("in \`file\`: “title”")`),
  );
  for (const item of listItems(moved.text))
    if (referencesIn(item).length === 0 && demoSanityLabels(item).length === 0)
      problems.push(`${DOC} § ${MOVED}: a claim without where it is proven now: ${item.slice(0, 100)}…`);
  return problems;
}

const anySource = (file: string) => (exists(file) ? read(file) : undefined);
/** The repository's files, and one more that is not there. */
const withFile = (file: string, source: string) => (f: string) => (f === file ? source : anySource(f));

test('every self-test title is listed in its file’s section of docs/claims.md, and no title listed there is gone', () => {
  expect(sectionProblems(read(DOC), selftestFiles(), anySource)).toEqual([]);
});

test('every reference “in `file`: “title”” of docs/claims.md names a test file and a test of it that exist; each moved claim says where it is proven now', () => {
  expect(referenceProblems(read(DOC), anySource)).toEqual([]);
});

test('every scenario docs/claims.md says the demo sanity stage walks is walked by it, and npm test runs that stage', () => {
  const checkDemo = read('demo/check-demo.ts');
  const skipped = /const SKIPPED_HOSTILE = new Set\(\[([^\]]*)\]\)/.exec(checkDemo)?.[1];
  expect(skipped, 'demo/check-demo.ts SKIPPED_HOSTILE').toBeDefined();
  const left = new Set([...skipped!.matchAll(/'([\w-]+)'/g)].map((m) => m[1]!));
  const walked = new Set(
    [...SCENARIOS, ...HOSTILE_SCENARIOS.filter((s) => !left.has(s.label))].map((s) => s.label),
  );
  const named = demoSanityLabels(oneLine(read(DOC)));
  expect(named.length).toBeGreaterThan(0);
  const known = new Set([...SCENARIOS, ...HOSTILE_SCENARIOS, ...NIGHTLY_SCENARIOS].map((s) => s.label));
  expect(
    named.filter((l) => !walked.has(l)).map((l) => (known.has(l) ? `${l}: not walked` : `${l}: no scenario`)),
  ).toEqual([]);
  expect(read('scripts/test.mjs')).toContain("'demo/check-demo.ts'");
});

test('the counts docs/claims.md gives are those of its lists', () => {
  const doc = oneLine(read(DOC));
  const claims = selftestFiles().reduce((n, f) => n + testTitles(read(f)).titles.length, 0);
  const moved = sections(read(DOC)).find((s) => s.heading === MOVED)!.text;
  const inPart = moved.split(`### ${IN_PART}`)[1] ?? '';
  expect({
    claims: Number(/(\d+) claims in/.exec(doc)?.[1]),
    moved: Number(/(\d+) claims moved/.exec(doc)?.[1]),
    inPart: Number(/(\d+) of them proven in part only/.exec(doc)?.[1]),
  }).toEqual({ claims, moved: listItems(moved).length, inPart: listItems(inPart).length });
});

test('the checks fail on a title left out, a title no longer there and a made-up reference', () => {
  const file = 'tests/selftest/example.spec.ts';
  const source = [
    "test('plain title', () => {});",
    'test("it\'s \\"quoted\\"", () => {});',
    'test(`templated ${kind} title`, () => {});',
    "test.describe('a group, not a test', () => {});",
    "expect(/x/.test('not a title')).toBe(true);",
    'test(titleFromAVariable, () => {});',
  ].join('\n');
  expect(testTitles(source).titles.map((t) => t.text)).toEqual([
    'plain title',
    'it\'s "quoted"',
    'templated ${kind} title',
  ]);
  const doc = [
    `## \`${file}\``,
    '',
    '- “plain title” — an invocation.',
    '- “templated fault title” — another.',
    '- “a title the file no longer has” — none.',
    '',
    `## ${MOVED}`,
    '',
    '- **A claim.** Proven now in `tests/unit/claims.spec.ts`: “a made-up title”.',
    '- **Another claim**, with nothing that proves it.',
    '- **A third.** Proven now in `tests/unit/nowhere.spec.ts`: “plain title”.',
  ].join('\n');
  const sources = withFile(file, source);
  expect([...sectionProblems(doc, [file], sources), ...referenceProblems(doc, sources)]).toEqual([
    `${file} line 6: test(titleFromAVariable, () => {});: a test title that is no string literal`,
    `${DOC} § ${file} does not list “it's "quoted"”`,
    `${DOC} § ${file} lists “a title the file no longer has”, which ${file} has no test of`,
    `${DOC} refers to “a made-up title” in tests/unit/claims.spec.ts, which has no such test`,
    `${DOC} refers to tests/unit/nowhere.spec.ts, which is no test file of the repository`,
    `${DOC} § ${MOVED}: a claim without where it is proven now: - **Another claim**, with nothing that proves it.…`,
  ]);
});
