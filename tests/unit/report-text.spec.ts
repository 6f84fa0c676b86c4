import { expect, test } from './test-type';
import { noteLines } from '../../fixtures/check';
import { displayWidth, markdownText, padDisplay, safeText, runTitle } from '../../lib/report/text';

test.describe('safeText', () => {
  test('escapes C0, DEL and C1 controls, tab and newline included', () => {
    expect(safeText('a\u001b[2Jb')).toBe('a\\x1b[2Jb');
    expect(safeText('x\ry')).toBe('x\\x0dy');
    expect(safeText('line\n✓ 1 passed')).toBe('line\\x0a✓ 1 passed');
    expect(safeText('\t\u0000\u007f\u0085\u009f')).toBe('\\x09\\x00\\x7f\\x85\\x9f');
  });

  test('escapes line separators and bidi overrides and isolates', () => {
    expect(safeText('a\u2028b\u2029c')).toBe('a\\u2028b\\u2029c');
    expect(safeText('\u202a\u202b\u202c\u202d\u202e')).toBe('\\u202a\\u202b\\u202c\\u202d\\u202e');
    expect(safeText('\u2066\u2067\u2068\u2069')).toBe('\\u2066\\u2067\\u2068\\u2069');
  });

  test('escapes what shows as nothing: zero-width space, joiners, direction marks, word joiner, byte order mark, soft hyphen', () => {
    expect(safeText('A-monitor\u200b')).toBe('A-monitor\\u200b');
    expect(safeText('\u200c\u200d\u200e\u200f\u2060\ufeff\u00ad\u061c\u180e')).toBe(
      '\\u200c\\u200d\\u200e\\u200f\\u2060\\ufeff\\xad\\u061c\\u180e',
    );
  });

  test('keeps ordinary text, Chinese and emoji as they are', () => {
    expect(safeText('森氧科技 · 全平台 ✅ 49.64%')).toBe('森氧科技 · 全平台 ✅ 49.64%');
  });

  test('truncates to max characters with the count of the rest, never splitting a surrogate pair', () => {
    const long = 'abc' + 'd'.repeat(40);
    expect(safeText(long, 3)).toBe('abc… (40 more characters)');
    expect(safeText('abc', 3)).toBe('abc');
    expect(safeText('😀😀' + '😀'.repeat(30), 2)).toBe('😀😀… (30 more characters)');
    // The cut counts the original text; escapes come after it.
    expect(safeText('\u001b\u001b' + '\u001b'.repeat(30), 2)).toBe('\\x1b\\x1b… (30 more characters)');
    // Near miss: a cut that would not shorten the text is not made ("… (3 more characters)").
    expect(safeText('abcdef', 3)).toBe('abcdef');
    expect(safeText('\u001b\u001b\u001b', 2)).toBe('\\x1b\\x1b\\x1b');
  });

  test('a text of tens of MB (a page error message) is cut before it is read: its start, and the count of the rest', () => {
    // 50 MB, ending in an emoji and a control: read whole, this took seconds and a GB of memory.
    const huge = `${'x'.repeat(50_000_000)}😀\u001b`;
    expect(safeText(huge, 20)).toBe(`${'x'.repeat(20)}… (49999982 more characters)`);
    // Past the part read, a pair cut in two by the read bound still counts as one character.
    expect(safeText(`${'a'.repeat(1063)}${'😀'.repeat(500)}`, 10)).toBe(
      `${'a'.repeat(10)}… (1553 more characters)`,
    );
  });

  test('a secret that makes the text far longer than max is still masked whole', () => {
    // Masking shortens the start below what is shown plus its margin: more of the text is read.
    const text = `?token=${'y'.repeat(5_000_000)} https://u:pw@h.test 13800138000`;
    expect(safeText(text, 60)).toBe('?token=*** https://***@h.test 1**********');
    expect(safeText(text, 10)).toBe('?token=***… (31 more characters)');
  });
});

test('displayWidth counts wide characters twice, so Chinese labels line up', () => {
  expect(displayWidth('abc')).toBe(3);
  expect(displayWidth('森氧科技')).toBe(8);
  expect(padDisplay('森氧', 6)).toBe('森氧  ');
});

test('markdownText cannot add a column, a link or HTML', () => {
  const out = markdownText('a | b [x](http://e) <img src=x> `c`\n✓ 1 passed');
  expect(out).not.toMatch(/(?<!\\)\|/);
  expect(out).not.toContain('<');
  expect(out).toContain('\\[x\\]');
  expect(out).toContain('\\x0a');
});

test('markdownText: no autolink, mail link or emoji from data (summary.md is rendered by GitHub)', () => {
  const out = markdownText('see https://evil.test/x and www.evil.test, mail a@b.test :rocket: :+1:');
  for (const live of ['https://', 'www.evil', 'a@b', ':rocket:', ':+1:']) expect(out).not.toContain(live);
  expect(out).toBe(
    'see https&#58;//evil.test/x and www&#46;evil.test, mail a&#64;b.test &#58;rocket: &#58;+1:',
  );
  // Shortcodes that share a colon are all broken; a colon that starts none stays readable.
  expect(markdownText(':a:b: item 7: HTML 3 · tolerance: 0.05')).toBe(
    '&#58;a&#58;b: item 7: HTML 3 · tolerance: 0.05',
  );
});

test('runTitle: two labels shown alike never share a title (Playwright refuses a duplicate title and loads no test of any run)', () => {
  const phoneA = ['acme-138', '0013', '8000'].join('');
  const phoneB = ['acme-139', '0013', '9000'].join('');
  const long = (end: string) => `${'x'.repeat(200)}${end}`;
  const labels = [
    'A-monitor',
    phoneA,
    phoneB,
    long('a'),
    long('b'),
    'tab\there',
    'tab\\x09here',
    'A-monitor\u200b',
  ];
  const titles = labels.map((l, i) => runTitle(l, i + 1));
  expect(new Set(titles).size).toBe(labels.length);
  // A label shown as it is keeps its title (Allure's history joins nights by it).
  expect(titles[0]).toBe('A-monitor');
  expect(titles[1]).toBe('acme-1********** (run #2)');
  expect(titles.join(' ')).not.toContain(phoneA.slice(5));
  // A zero-width space is seen, and numbered: the two A-monitors are told apart.
  expect(titles[7]).toBe('A-monitor\\u200b (run #8)');
});

test("an Allure description's notes carry data, and Allure renders markdown: no image, link, emphasis or HTML from a platform's name (fixtures/check.ts noteLines)", () => {
  const name =
    '![](//evil.example/md7.png) [click here to re-login](//evil.example/phish) **BOLD7** <img src=x>';
  const [line] = noteLines([
    `DATA.meta.platforms lists 7 platforms; the 7th and later are not compared: ${name}`,
  ]);
  expect(line!.startsWith('- DATA.meta.platforms lists 7 platforms')).toBe(true);
  // Every character markdown reads as an image, a link, emphasis or HTML is escaped.
  expect(line!.slice(2)).not.toMatch(/(?<!\\)[[\]*]|[<>]/);
  expect(line).toContain(
    '!\\[\\](//evil.example/md7.png) \\[click here to re-login\\](//evil.example/phish) \\*\\*BOLD7\\*\\*',
  );
});

test('runTitle: a label written as another run’s shown title, number and all, gets a title of its own (a runs file could make two groups share one and load no test of any run)', () => {
  const phone = ['acme-138', '0013', '8000'].join('');
  const shown = runTitle(phone, 1);
  expect(shown).toBe('acme-1********** (run #1)');
  const titles = [shown, runTitle(shown, 2), runTitle('acme (run #7)', 3), runTitle('A-monitor', 4)];
  expect(new Set(titles).size).toBe(titles.length);
  expect(titles.slice(1)).toEqual([
    'acme-1********** (run #1) (run #2)',
    'acme (run #7) (run #3)',
    'A-monitor',
  ]);
});
