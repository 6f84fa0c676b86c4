import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import assert from 'node:assert';
import fc from 'fast-check';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from './test-type';
import { knownRunLabels, mergeLastRuns, mergeVerdictFolders } from '../../lib/report/merge';
import { summarize, summaryMarkdown } from '../../lib/report/night';
import { failingItemLines } from '../../lib/report/junit';
import {
  folderSelection,
  nightFilesLine,
  readVerdictFolder,
  writeNightFiles,
  writeVerdict,
  writeVerdictFolder,
  type VerdictEntry,
} from '../../lib/report/verdict-folder';
import {
  verdictFileSchema,
  verdictIndexSchema,
  type Selection,
  type VerdictFile,
} from '../../lib/schema/verdict';
import { COMPLETE, fakeVerdict } from './fakes/verdicts';
import { fileKeyOf, type ConfiguredRun } from '../../lib/run/runs';
import type { ProfileBSettings } from '../../lib/run/types';
import { tsScript } from '../../lib/run/settings';
import { incompleteResults } from '../../lib/report/allure/write-guard';

const REPO = path.resolve(__dirname, '..', '..');
const selection: Selection = { filters: [], shard: null, complete: true };
const temps: string[] = [];

/** The verdict folder of a shard that had no run: its index alone. */
function noRunShard(selection: typeof COMPLETE): string {
  const dir = tempDir();
  fs.writeFileSync(
    path.join(dir, 'index.json'),
    JSON.stringify({ generatedAt: 'x', suite: { name: 'l1-verify', version: '0' }, selection, runs: [] }),
  );
  return dir;
}

test.afterAll(() => {
  for (const t of temps) fs.rmSync(t, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'l1-merge-'));
  temps.push(dir);
  return dir;
}

/**
 * Verdicts of a folder that names no shard (as `npm run merge` of folders by hand): the merge then
 * knows no split and looks for no absent shard. The tests of shards give theirs (`ofShard`).
 */
const verdict = (label: string, items: Record<number, 'pass' | 'fail'>, extra: Partial<VerdictFile> = {}) =>
  fakeVerdict(label, items, { selection: { filters: [], shard: null, complete: true }, ...extra });

/** The entry, as shard `i/n` wrote it. */
const ofShard = (shardOf: string, e: VerdictEntry): VerdictEntry => ({
  file: e.file,
  verdict: { ...e.verdict, selection: { ...e.verdict.selection, shard: shardOf } },
});

const entry = (
  label: string,
  items: Record<number, 'pass' | 'fail'> = { 3: 'pass', 5: 'pass' },
): VerdictEntry => ({
  file: `${label}.json`,
  verdict: verdict(label, items),
});

/** A shard's verdict folder, as the end-of-invocation code writes it. */
function shard(...entries: VerdictEntry[]): string {
  const dir = tempDir();
  writeVerdictFolder(dir, entries, selection);
  return dir;
}

test.describe('verdict folder', () => {
  test('a stop the night files record is read back, so night files written again from the folder (npm run report) keep it and its exit code 2 (review: they dropped it, exit 1)', () => {
    const dir = tempDir();
    const entries = [entry('a', { 5: 'fail' })];
    const partial = { filters: ['--grep item5'], shard: null, complete: false };
    const stop = 'the invocation stopped at --max-failures=1';
    writeNightFiles(dir, entries, summarize([entries[0]!.verdict], partial, stop));
    for (const e of entries) fs.writeFileSync(path.join(dir, e.file), JSON.stringify(e.verdict));
    const folder = readVerdictFolder(dir);
    expect(folder.stopped).toBe(stop);
    const again = summarize(folder.verdicts, folderSelection(folder.verdicts), folder.stopped);
    writeNightFiles(dir, folder.entries, again);
    const index = JSON.parse(fs.readFileSync(path.join(dir, 'index.json'), 'utf8')) as {
      exitCode: number;
      stopped: string;
    };
    expect(index).toMatchObject({ exitCode: 2, stopped: stop });
    expect(fs.readFileSync(path.join(dir, 'summary.md'), 'utf8')).toContain(`stopped early: ${stop}`);
    // A folder whose night files say nothing of a stop reads none.
    expect(readVerdictFolder(shard(entry('b'))).stopped).toBeUndefined();
  });

  test("the index of a folder of no verdict names this suite's version, not `unknown` (reader audit)", () => {
    const dir = tempDir();
    writeVerdictFolder(dir, [], selection);
    const index = JSON.parse(fs.readFileSync(path.join(dir, 'index.json'), 'utf8')) as {
      suite: { name: string; version: string };
    };
    const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
      version: string;
    };
    expect(index.suite).toEqual({ name: 'l1-verify', version: pkg.version });
  });

  test("the main job's closing line names the night files only when they are there: a night whose runner died on a full disk has none, and the line says so (file-system audit: it listed all three)", () => {
    const dir = tempDir();
    writeVerdict(dir, 'a.json', verdict('a', { 3: 'pass' }));
    expect(nightFilesLine(dir)).toBe(
      '(no summary.md, index.json, junit.xml: the night was not finished, see above; npm run report finishes it from what is on disk)',
    );
    writeVerdictFolder(dir, [entry('a')], selection);
    expect(nightFilesLine(dir)).toBe('(summary.md, index.json, junit.xml)');
    fs.rmSync(path.join(dir, 'junit.xml'));
    expect(nightFilesLine(dir)).toMatch(/^\(no junit\.xml: the night was not finished/);
  });

  test('writes each verdict, index.json, summary.md and junit.xml, and reads the verdicts back', () => {
    const dir = tempDir();
    const { files: written, summary } = writeVerdictFolder(
      dir,
      [entry('b'), { file: 'a', verdict: verdict('a', { 4: 'fail' }) }],
      selection,
    );
    // The one summary the night files render, which the merge prints and takes its exit code from.
    expect(fs.readFileSync(path.join(dir, 'summary.md'), 'utf8')).toBe(
      summaryMarkdown(summary, failingItemLines(summary)),
    );
    expect(summary.exitCode).toBe(1);
    expect(written.map((f) => path.basename(f))).toEqual([
      'a.json',
      'b.json',
      'index.json',
      'summary.md',
      'junit.xml',
    ]);
    expect(fs.readdirSync(dir).filter((n) => n.includes('.tmp-'))).toEqual([]);
    const index = verdictIndexSchema.parse(JSON.parse(fs.readFileSync(path.join(dir, 'index.json'), 'utf8')));
    expect(index.runs).toEqual([
      { label: 'a', file: 'a.json', status: 'checked', items: { 4: 'fail' } },
      { label: 'b', file: 'b.json', status: 'checked', items: { 3: 'pass', 5: 'pass' } },
    ]);
    expect(fs.readFileSync(path.join(dir, 'summary.md'), 'utf8')).toContain('| a | · | ❌ |');
    expect(fs.readFileSync(path.join(dir, 'junit.xml'), 'utf8')).toContain('<testsuite name="a"');
    const back = readVerdictFolder(dir);
    expect(back.problems).toEqual([]);
    expect(back.entries.map((e) => e.file)).toEqual(['a.json', 'b.json']);
    expect(back.verdicts[0]).toEqual(verdict('a', { 4: 'fail' }));
  });

  test('index.json gives each run not checked its reason and kind, and a checked run none', () => {
    const dir = tempDir();
    const down = verdict('down', {}, { status: 'error', failureKind: 'platform', reason: 'HTTP 403' });
    writeVerdictFolder(dir, [entry('a'), { file: 'down.json', verdict: down }], selection);
    const index = verdictIndexSchema.parse(JSON.parse(fs.readFileSync(path.join(dir, 'index.json'), 'utf8')));
    expect(index.runs).toEqual([
      { label: 'a', file: 'a.json', status: 'checked', items: { 3: 'pass', 5: 'pass' } },
      {
        label: 'down',
        file: 'down.json',
        status: 'error',
        reason: 'HTTP 403',
        failureKind: 'platform',
        items: {},
      },
    ]);
  });

  test('refuses two verdicts with one file name, and the names of the extras', () => {
    expect(() => writeVerdictFolder(tempDir(), [entry('a'), entry('a')], selection)).toThrow(/two verdicts/);
    expect(() =>
      writeVerdictFolder(tempDir(), [{ file: 'index.json', verdict: verdict('x', {}) }], selection),
    ).toThrow();
    expect(() =>
      writeVerdictFolder(tempDir(), [{ file: '../x.json', verdict: verdict('x', {}) }], selection),
    ).toThrow();
  });

  test('a file that is not a verdict is a problem naming the file and the field', () => {
    const dir = shard(entry('a'));
    const bad = JSON.parse(fs.readFileSync(path.join(dir, 'a.json'), 'utf8'));
    bad.run.label = 42;
    bad.items[0].verdict = 'maybe';
    fs.writeFileSync(path.join(dir, 'broken.json'), JSON.stringify(bad));
    fs.writeFileSync(path.join(dir, 'torn.json'), '{"run": ');
    const read = readVerdictFolder(dir);
    expect(read.entries.map((e) => e.file)).toEqual(['a.json']);
    expect(read.problems).toHaveLength(2);
    expect(read.problems[0]).toContain(path.join(dir, 'broken.json'));
    expect(read.problems[0]).toContain('run.label');
    expect(read.problems[0]).toContain('items[0].verdict');
    expect(read.problems[1]).toContain(path.join(dir, 'torn.json'));
    expect(read.problems[1]).toContain('not valid JSON');
  });

  test('the extras are not read as verdicts (emptying the folder: outputs.spec, emptyOwnFiles)', () => {
    const dir = shard(entry('a'));
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'keep me');
    fs.mkdirSync(path.join(dir, 'sub.json'));
    const read = readVerdictFolder(dir);
    expect(read.problems).toEqual([]);
    expect(read.entries.map((e) => e.file)).toEqual(['a.json']);
  });
});

test.describe("folderSelection (npm run report rebuilds a folder's index from its verdicts)", () => {
  const of = (shard: string | null, filters: string[] = [], complete = true) =>
    fakeVerdict('x', { 3: 'pass' }, { selection: { filters, shard, complete } });

  test("one shard's folder keeps its shard; verdicts of several shards, or of none, are no shard", () => {
    expect(folderSelection([of('2/3'), of('2/3')]).shard).toBe('2/3');
    expect(folderSelection([of('1/3'), of('2/3')]).shard).toBeNull();
    expect(folderSelection([of('1/3'), of(null)]).shard).toBeNull();
    expect(folderSelection([of(null)]).shard).toBeNull();
  });

  test('the union of the filters, sorted; complete only when every verdict was, and never of no verdict', () => {
    expect(
      folderSelection([of(null, ['--grep item5'], false), of(null, ['--grep item4', '--grep item5'], false)]),
    ).toEqual({
      filters: ['--grep item4', '--grep item5'],
      shard: null,
      complete: false,
    });
    expect(folderSelection([of(null), of(null, ['--grep item5'], false)]).complete).toBe(false);
    expect(folderSelection([of(null), of(null)]).complete).toBe(true);
    expect(folderSelection([]).complete).toBe(false);
  });
});

test.describe('mergeVerdictFolders', () => {
  test('two shards give the union, with no problem', () => {
    const merged = mergeVerdictFolders([shard(entry('a'), entry('c')), shard(entry('b'))], ['a', 'b', 'c']);
    expect(merged.problems).toEqual([]);
    expect(merged.entries.map((e) => e.file)).toEqual(['a.json', 'b.json', 'c.json']);
    expect(merged.selection).toEqual({ filters: [], shard: null, complete: true });
  });

  test("the merged night is no shard, also when one folder holds it all (a night of 1 shard): one shard's folder adds no history point, the merged night does", () => {
    const merged = mergeVerdictFolders([shard(ofShard('1/1', entry('a')))], ['a']);
    expect(merged.problems).toEqual([]);
    expect(merged.selection).toEqual({ filters: [], shard: null, complete: true });
  });

  test('runs found in no shard where no shard left a verdict (more shards than runs, all there): the night is still the whole of L1_RUNS, complete', () => {
    const merged = mergeVerdictFolders([noRunShard(COMPLETE)], ['lost']);
    const lost = merged.entries[0]!.verdict;
    expect(lost).toMatchObject({ status: 'error', failureKind: 'input' });
    expect(lost.selection).toEqual({ filters: [], shard: null, complete: true });
    expect(merged.selection.complete).toBe(true);
  });

  test('a label holding a mobile number: its verdict keeps it masked, and the merge still knows the run by its file name; two such labels masked alike stay two runs (reader audit)', () => {
    const labels = ['acme-13812345678-monitor', 'acme-13987654321-monitor'];
    const masked = (label: string): VerdictEntry => ({
      file: `${fileKeyOf(label)}.json`,
      verdict: verdict(label.replace(/1[3-9]\d{9}/, '1**********'), { 3: 'pass' }),
    });
    const merged = mergeVerdictFolders([shard(masked(labels[0]!)), shard(masked(labels[1]!))], labels);
    expect(merged.problems).toEqual([]);
    expect(merged.notes).toEqual([]);
    expect(merged.entries.map((e) => e.verdict.run.label)).toEqual([
      'acme-1**********-monitor',
      'acme-1**********-monitor',
    ]);
    expect(JSON.stringify(merged.entries)).not.toMatch(/13812345678|13987654321/);
  });

  test('shards of another night or another split are a problem naming their folders: a reused workspace, a job re-run on a later day (README.md § Run it nightly in CI)', () => {
    const night = (batchDate: string) => ({ night: { batchDate, describe: batchDate } });
    const tonight = (label: string, shardOf = '1/2') => ({
      file: `${label}.json`,
      verdict: verdict(
        label,
        { 3: 'pass' },
        { ...night('2026-11-25'), selection: { filters: [], shard: shardOf, complete: true } },
      ),
    });
    const one = shard(tonight('a'));
    const two = shard(tonight('b', '2/2'));
    expect(mergeVerdictFolders([one, two], ['a', 'b']).problems).toEqual([]);
    // Re-run the next day: shard 2 resolved yesterday again, one day later.
    const later = shard({
      file: 'b.json',
      verdict: verdict(
        'b',
        { 3: 'pass' },
        { ...night('2026-11-26'), selection: { filters: [], shard: '2/2', complete: true } },
      ),
    });
    const dates = mergeVerdictFolders([one, later], ['a', 'b']);
    expect(dates.problems).toHaveLength(1);
    expect(dates.problems[0]).toContain('different batch dates: 2026-11-25 (');
    expect(dates.problems[0]).toContain(`2026-11-26 (${later})`);
    // Last night's third shard of three next to tonight's two.
    const stale = shard(tonight('c', '3/3'));
    const splits = mergeVerdictFolders([one, two, stale], ['a', 'b', 'c']);
    expect(splits.problems).toEqual([
      expect.stringContaining(`different splits: 2 shards (${one}, ${two}); 3 shards (${stale})`),
    ]);
  });

  test('a night split into any number of shards and merged writes the files of the same night unsharded: each verdict but the shard that checked it, index.json but its time, summary.md and junit.xml, whatever each run ended as (fast-check; docs/claims.md: an unsharded invocation beside the sharded one once proved it)', () => {
    // Every way a run ends but `interrupted`, whose night is a stopped one, said by the merge in its
    // own words (the tests above). Items: any of 3..12, each passing or failing.
    const item = fc.constantFrom(3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
    const ending = fc.oneof(
      fc.dictionary(item.map(String), fc.constantFrom<'pass' | 'fail'>('pass', 'fail')).map((items) => ({
        items,
        extra: {},
      })),
      fc
        .constantFrom<Partial<VerdictFile>>(
          { status: 'error', failureKind: 'input', reason: 'DATA: field wordcloud missing' },
          { status: 'error', failureKind: 'platform', reason: 'endpoint answered 503' },
          { status: 'error', failureKind: 'configuration', reason: 'no credentials for company 1001' },
          { status: 'needs-input', failureKind: 'needs-input', reason: '8.1.1: two batches that day' },
        )
        .map((extra) => ({ items: {}, extra })),
    );
    const night = fc.uniqueArray(fc.tuple(fc.stringMatching(/^[a-z][a-z0-9-]{0,11}$/), ending), {
      minLength: 1,
      maxLength: 8,
      selector: ([label]) => label,
    });
    fc.assert(
      fc.property(
        night,
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        (runs, n, picks) => {
          const entries = runs.map(([label, { items, extra }]) => ({
            file: `${label}.json`,
            verdict: fakeVerdict(label, items as Record<number, 'pass' | 'fail'>, extra),
          }));
          const unsharded = tempDir();
          writeVerdictFolder(unsharded, entries, COMPLETE);
          // Each run in the shard `picks` gives it; a shard given no run writes its empty night.
          const dirs = Array.from({ length: n }, (_, i) => {
            const shardOf = `${i + 1}/${n}`;
            const mine = entries.filter((_, r) => (picks[r] ?? r) % n === i).map((e) => ofShard(shardOf, e));
            const dir = tempDir();
            writeVerdictFolder(dir, mine, { ...COMPLETE, shard: shardOf });
            return dir;
          });
          const merged = mergeVerdictFolders(
            dirs,
            runs.map(([label]) => label),
            { shards: n },
          );
          const out = tempDir();
          writeVerdictFolder(out, merged.entries, merged.selection, merged.stopped);
          // A merged verdict keeps the shard that checked its run (its invocation's selection); the
          // night, its index and the other files name none.
          const read = (dir: string, name: string) => {
            const text = fs.readFileSync(path.join(dir, name), 'utf8');
            if (name === 'index.json') return text.replace(/"generatedAt": "[^"]*"/, '');
            return text.replace(/"shard": "\d+\/\d+"/, '"shard": null');
          };
          const shards = merged.entries.map((e) => `${e.file} ${e.verdict.selection.shard}`).sort();
          const checkedBy = entries.map((e, r) => `${e.file} ${((picks[r] ?? r) % n) + 1}/${n}`).sort();
          const names = fs.readdirSync(unsharded).sort();
          const differ = [
            ...(merged.problems.length > 0 ? [`problems ${JSON.stringify(merged.problems)}`] : []),
            ...(JSON.stringify(fs.readdirSync(out).sort()) === JSON.stringify(names) ? [] : ['file names']),
            ...names.filter((name) => read(out, name) !== read(unsharded, name)),
            ...(JSON.stringify(shards) === JSON.stringify(checkedBy)
              ? []
              : [`shards ${JSON.stringify(shards)}`]),
          ];
          assert.deepStrictEqual(differ, [], `${runs.length} run(s) in ${n} shard(s): these differ`);
        },
      ),
      { numRuns: 60 },
    );
  });

  test('a run in two shards is reported with both files, and neither result is kept', () => {
    const one = shard(entry('a'), entry('b', { 5: 'pass' }));
    const two = shard(entry('b', { 5: 'fail' }));
    const merged = mergeVerdictFolders([one, two]);
    expect(merged.problems).toHaveLength(1);
    expect(merged.problems[0]).toContain('"b" found in 2 shards');
    expect(merged.problems[0]).toContain(path.join(one, 'b.json'));
    expect(merged.problems[0]).toContain(path.join(two, 'b.json'));
    const b = merged.entries.find((e) => e.file === 'b.json')!.verdict;
    expect(b.status).toBe('error');
    expect(b.items).toEqual([]);
    expect(b.reason).toContain(path.join(two, 'b.json'));
  });

  test('a run of L1_RUNS found in no shard is reported, and is an error verdict in every merged file', () => {
    const merged = mergeVerdictFolders([shard(entry('a'))], ['a', 'lost']);
    expect(merged.problems).toEqual([
      'run "lost" of L1_RUNS found in no shard (the merged verdict says error)',
    ]);
    expect(merged.entries.map((e) => e.file)).toEqual(['a.json', 'lost.json']);
    const lost = merged.entries[1]!.verdict;
    expect(lost).toMatchObject({ run: { label: 'lost' }, status: 'error', failureKind: 'input', items: [] });
    expect(lost.reason).toMatch(/^merge: run found in no shard \(of 1 shard folder\)/);
    expect(lost.selection).toEqual({ filters: [], shard: null, complete: true });
    // Written, the index, summary and JUnit count it, and their exit code is the merge's: 2.
    const out = tempDir();
    writeVerdictFolder(out, merged.entries, merged.selection);
    const index = verdictIndexSchema.parse(JSON.parse(fs.readFileSync(path.join(out, 'index.json'), 'utf8')));
    expect(index.exitCode).toBe(2);
    expect(index.runs.find((r) => r.label === 'lost')).toMatchObject({
      status: 'error',
      failureKind: 'input',
    });
    expect(fs.readFileSync(path.join(out, 'summary.md'), 'utf8')).toContain('lost');
    expect(fs.readFileSync(path.join(out, 'junit.xml'), 'utf8')).toContain('<testsuite name="lost"');
  });

  test("a run of L1_RUNS found in no shard has the facts its URLs give, its profile by the merge's Profile B settings (lib/run/profile.ts unreadRunFacts)", () => {
    const lost: ConfiguredRun = {
      label: 'lost',
      slug: 'lost',
      input: {
        htmlUrl: 'https://portal.example/reports/300101/diagnosis/2025-11-17?companyId=3100',
        platformUrl: 'https://platform.example/platform/projects/300101/overview',
      },
    };
    const facts = (profileB: ProfileBSettings) =>
      mergeVerdictFolders([shard(entry('a'))], ['a', lost], { profileB }).entries[1]!.verdict.run;
    expect(facts({ companyId: 3100 })).toMatchObject({
      companyId: 3100,
      projectId: '300101',
      reportType: 'diagnosis',
      batchDate: '2025-11-17',
      profile: 'B',
    });
    expect(facts({}).profile).toBe('A');
  });

  test('a run found in no shard beside a shard that was stopped (a run of it interrupted, or no index: killed) is interrupted, not input', () => {
    const stopped = entry('b');
    stopped.verdict = verdict(
      'b',
      {},
      {
        status: 'error',
        failureKind: 'interrupted',
        reason: 'the invocation was interrupted by SIGTERM while its collection ran',
      },
    );
    const whole = shard(entry('a'));
    const interrupted = mergeVerdictFolders([whole, shard(stopped)], ['a', 'b', 'lost']);
    const lost = () => interrupted.entries.find((e) => e.file === 'lost.json')!.verdict;
    expect(lost()).toMatchObject({ status: 'error', failureKind: 'interrupted' });
    expect(lost().reason).toMatch(
      /^merge: run found in no shard \(of 2 shard folders\), and .* did not finish/,
    );
    // Night files torn or of something else (JSON, but not an index): not finished either.
    const foreign = shard(entry('b'));
    fs.writeFileSync(path.join(foreign, 'index.json'), '{}');
    expect(
      mergeVerdictFolders([whole, foreign], ['a', 'b', 'lost']).entries.find((e) => e.file === 'lost.json')!
        .verdict,
    ).toMatchObject({
      failureKind: 'interrupted',
      reason: expect.stringContaining(`${foreign} did not finish`),
    });
    // Killed: the runs it finished are there, its night files are not.
    const killed = shard(entry('b'));
    fs.rmSync(path.join(killed, 'index.json'));
    const merged = mergeVerdictFolders([whole, killed], ['a', 'b', 'lost']);
    expect(merged.entries.find((e) => e.file === 'lost.json')!.verdict).toMatchObject({
      failureKind: 'interrupted',
      reason: expect.stringContaining(`${killed} did not finish`),
    });
  });

  test('a shard of the night that left no folder (its job cancelled or killed before its upload) is a problem naming it, and its runs are interrupted, not input: the night adds no history point (audit: rm -rf shard-2, then merge)', () => {
    const one = shard(ofShard('1/3', entry('a')), ofShard('1/3', entry('b')));
    const three = shard(ofShard('3/3', entry('e')));
    const merged = mergeVerdictFolders([one, three], ['a', 'b', 'c', 'd', 'e']);
    expect(merged.absent).toEqual(['2/3']);
    expect(merged.problems).toContainEqual(
      expect.stringMatching(
        /^shard 2\/3: no results in the folders given \(its job left no artifact: cancelled, timed out or failed before its upload/,
      ),
    );
    for (const lost of ['c', 'd']) {
      const v = merged.entries.find((e) => e.file === `${lost}.json`)!.verdict;
      expect(v).toMatchObject({ status: 'error', failureKind: 'interrupted' });
      expect(v.reason).toMatch(
        /^merge: run found in no shard \(of 2 shard folders\), and shard 2\/3 left no results/,
      );
      // Neither finished shard is blamed.
      expect(v.reason).not.toContain(one);
      expect(v.reason).not.toContain(three);
    }
    // Written, the night's index says interrupted: the report step adds no point for it.
    const out = tempDir();
    writeVerdictFolder(out, merged.entries, merged.selection);
    const index = verdictIndexSchema.parse(JSON.parse(fs.readFileSync(path.join(out, 'index.json'), 'utf8')));
    expect(index.runs.filter((r) => r.failureKind === 'interrupted').map((r) => r.label)).toEqual(['c', 'd']);
    expect(index.exitCode).toBe(2);
  });

  test('a shard stopped beside one that left no folder: the runs found in no shard name both, never a shard that finished (audit: the reason blamed the stopped shard alone)', () => {
    const stopped = ofShard('1/3', {
      file: 'a.json',
      verdict: verdict(
        'a',
        {},
        { status: 'error', failureKind: 'interrupted', reason: 'interrupted by SIGTERM' },
      ),
    });
    const one = shard(stopped);
    const three = shard(ofShard('3/3', entry('e')));
    const merged = mergeVerdictFolders([one, three], ['a', 'c', 'e']);
    const c = merged.entries.find((e) => e.file === 'c.json')!.verdict;
    expect(c.failureKind).toBe('interrupted');
    expect(c.reason).toContain('shard 2/3 left no results');
    expect(c.reason).toContain(`and ${one} did not finish`);
    expect(c.reason).toContain('one of those shards never reached');
    expect(c.reason).not.toContain(three);
  });

  test('a night missing a shard is not whole even when its runs are not known (no L1_RUNS): its index says it stopped, exit 2, so no history point', () => {
    const one = shard(ofShard('1/3', entry('a')));
    const three = shard(ofShard('3/3', entry('c')));
    const merged = mergeVerdictFolders([one, three], null);
    expect(merged.stopped).toBe('the merged night is not whole: shard 2/3 left no results');
    const out = tempDir();
    writeVerdictFolder(out, merged.entries, merged.selection, merged.stopped);
    const index = verdictIndexSchema.parse(JSON.parse(fs.readFileSync(path.join(out, 'index.json'), 'utf8')));
    expect(index).toMatchObject({ stopped: merged.stopped, exitCode: 2 });
    // Every shard there, one killed before its night files: not whole either.
    const killed = shard(ofShard('2/2', entry('b')));
    fs.rmSync(path.join(killed, 'index.json'));
    expect(mergeVerdictFolders([shard(ofShard('1/2', entry('a'))), killed], null).stopped).toBe(
      `the merged night is not whole: ${killed} did not finish`,
    );
    // Near miss: every shard there and finished: whole, no stop.
    expect(mergeVerdictFolders([shard(ofShard('1/1', entry('a')))], null).stopped).toBeUndefined();
  });

  test('a shard whose artifact came with no verdict (its checks killed before any run ended) is not called one that left no artifact: it did not finish, and its runs say so', () => {
    const one = shard(ofShard('1/2', entry('a')));
    // As scripts/ci/shard.sh leaves it: `shard` written first, verdicts/ made, nothing in it.
    const killed = path.join(tempDir(), 'verdicts');
    fs.mkdirSync(killed);
    fs.writeFileSync(path.join(killed, '..', 'shard'), '2/2\n');
    const merged = mergeVerdictFolders([one, killed], ['a', 'b']);
    expect(merged.absent).toEqual([]);
    expect(merged.problems).toContain(`${killed}: holds no verdict (the shard did not finish: see its log)`);
    const b = merged.entries.find((e) => e.file === 'b.json')!.verdict;
    expect(b.failureKind).toBe('interrupted');
    expect(b.reason).toContain(`and ${killed} did not finish`);
    expect(b.reason).toContain('probably a run that shard never reached');
    expect(b.reason).not.toContain('left no artifact');
  });

  test('every shard of the night there and finished: a configured run none checked is input, as before', () => {
    const merged = mergeVerdictFolders(
      [shard(ofShard('1/2', entry('a'))), shard(ofShard('2/2', entry('b')))],
      ['a', 'b', 'lost'],
    );
    expect(merged.absent).toEqual([]);
    expect(merged.problems).toEqual([
      'run "lost" of L1_RUNS found in no shard (the merged verdict says error)',
    ]);
    expect(merged.entries.find((e) => e.file === 'lost.json')!.verdict).toMatchObject({
      failureKind: 'input',
      reason: expect.stringMatching(/^merge: run found in no shard \(of 2 shard folders\): a configured run/),
    });
  });

  test("the plan's shard count (--shards) finds a shard absent when the folders cannot tell (the last one lost), and a folder of another split is a problem; a shard that had no run is there", () => {
    const empty = noRunShard({ ...COMPLETE, shard: '2/3' });
    const one = shard(ofShard('1/3', entry('a')));
    // Without the count, the folders name 3 shards: 3/3 is absent; 2/3 (no run) is there.
    expect(mergeVerdictFolders([one, empty], ['a']).absent).toEqual(['3/3']);
    const asPlanned = mergeVerdictFolders([one, empty], ['a'], { shards: 3 });
    expect(asPlanned.absent).toEqual(['3/3']);
    expect(asPlanned.notes).toContainEqual(expect.stringContaining('this shard had no run to check'));
    const stale = shard(ofShard('2/2', entry('b')));
    const mixed = mergeVerdictFolders([one, stale], ['a', 'b'], { shards: 3 });
    expect(mixed.problems).toContainEqual(
      expect.stringContaining('the night was split into 3 shards, but folders hold shard 2/2'),
    );
  });

  test("mergeLastRuns: the union of the shards' failed tests; none (a note) when a shard is absent or left no record, so --last-failed re-runs everything rather than part", () => {
    const one = shard(ofShard('1/2', entry('a')));
    const two = shard(ofShard('2/2', entry('b')));
    fs.writeFileSync(
      path.join(one, 'last-run.json'),
      JSON.stringify({ status: 'failed', failedTests: ['t2', 't1'] }),
    );
    fs.writeFileSync(path.join(two, 'last-run.json'), JSON.stringify({ status: 'passed', failedTests: [] }));
    expect(mergeLastRuns([one, two], [])).toEqual({
      lastRun: { status: 'failed', failedTests: ['t1', 't2'] },
    });
    expect(mergeLastRuns([one], ['2/2']).note).toContain('shard 2/2 left none'); // `passed` only when every shard's is, whatever the order of the folders.
    expect(mergeLastRuns([two, one], []).lastRun?.status).toBe('failed');
    fs.writeFileSync(path.join(one, 'last-run.json'), JSON.stringify({ status: 'passed', failedTests: [] }));
    expect(mergeLastRuns([one, two], [])).toEqual({ lastRun: { status: 'passed', failedTests: [] } });

    fs.rmSync(path.join(two, 'last-run.json'));
    const note = mergeLastRuns([one, two], []);
    expect(note.lastRun).toBeUndefined();
    expect(note.note).toContain(path.join(two, 'last-run.json'));
    // Missing, it is not only a kill's doing: a shard run by hand (`npx playwright test --shard
    // 2/2`, README.md § Settings' `npm run merge`) has none, as only scripts/ci/shard.sh copies it;
    // the note blamed a kill that never happened.
    expect(note.note).toContain('only scripts/ci/shard.sh copies');
    fs.writeFileSync(path.join(two, 'last-run.json'), '{"status": ');
    const broken = mergeLastRuns([one, two], []).note;
    expect(broken).toContain('not valid JSON');
    expect(broken).not.toContain('only scripts/ci/shard.sh copies');
    // There but not readable (a folder in its place, EISDIR; a file it may not read, EACCES): not a
    // record that was never copied, which the note would say of it.
    fs.rmSync(path.join(two, 'last-run.json'));
    fs.mkdirSync(path.join(two, 'last-run.json'));
    const unreadable = mergeLastRuns([one, two], []).note;
    expect(unreadable).toContain('cannot be read');
    expect(unreadable).not.toContain('only scripts/ci/shard.sh copies');
    fs.rmSync(path.join(two, 'last-run.json'), { recursive: true });
    // Nor a record there that points at itself (a link loop, ELOOP; as the folder that may not be
    // searched, EACCES, which root cannot make): fs.existsSync says no of both (review 58 of a085fea).
    fs.symlinkSync('last-run.json', path.join(two, 'last-run.json'));
    const looped = mergeLastRuns([one, two], []).note;
    expect(looped).toContain('cannot be read (ELOOP)');
    expect(looped).not.toContain('only scripts/ci/shard.sh copies');
    fs.rmSync(path.join(two, 'last-run.json'));
    // A shard's record is not read as a verdict of its folder.
    expect(readVerdictFolder(one).problems).toEqual([]);
  });

  test('a missing run known with its URLs keeps them (redacted) and its file name; every shard empty still names it', () => {
    const run = {
      label: '长 label',
      slug: 'long-label-x',
      input: { htmlUrl: 'http://h/r/1/monitor/2025-11-17?token=secret', platformUrl: 'http://h/p/1' },
    };
    const merged = mergeVerdictFolders([tempDir()], [run]);
    expect(merged.entries.map((e) => e.file)).toEqual(['long-label-x.json']);
    const v = merged.entries[0]!.verdict;
    expect(v.run.htmlUrl).not.toContain('secret');
    // The one folder holds no verdict: its shard did not finish, so the run is interrupted.
    expect(v).toMatchObject({ status: 'error', failureKind: 'interrupted' });
    expect(verdictFileSchema.parse(v)).toEqual(v);
  });

  test('missing, empty (of a shard that did not finish) and invalid folders are problems', () => {
    const empty = tempDir();
    const missing = path.join(tempDir(), 'nope');
    const withBad = shard(entry('a'));
    fs.writeFileSync(path.join(withBad, 'x.json'), JSON.stringify({ ...verdict('x', {}), status: 'fine' }));
    const merged = mergeVerdictFolders([empty, missing, withBad]);
    expect(merged.problems).toEqual([
      `${empty}: holds no verdict (the shard did not finish: see its log)`,
      `${missing}: folder does not exist`,
      expect.stringMatching(/x\.json: not a verdict file .*status/),
    ]);
    expect(merged.entries.map((e) => e.file)).toEqual(['a.json']);
  });
});

test.describe('knownRunLabels', () => {
  const at = (dir: string, env: NodeJS.ProcessEnv) => ({ env, dotenv: {}, root: dir });

  test("labels of the runs as the suite derives them, unlabelled runs too; the shards' night fills {batchDate}", () => {
    const dir = tempDir();
    fs.writeFileSync(
      path.join(dir, 'runs.json'),
      JSON.stringify({
        runs: [
          { label: ' a ', htmlUrl: 'x', platformUrl: 'y' },
          { label: 'night-{batchDate}', htmlUrl: 'x', platformUrl: 'y' },
          {
            htmlUrl: 'http://h/r/1/monitor/{batchDate}?companyId=1001',
            platformUrl: 'http://h/projects/9/o',
          },
        ],
      }),
    );
    const known = knownRunLabels(at(dir, { L1_RUNS: 'runs.json' }), {
      batchDate: '2025-11-17',
      describe: 'x',
    });
    expect(known.labels).toEqual(['a', 'night-2025-11-17', '1001-9-monitor']);
    expect(knownRunLabels(at(dir, {})).labels).toBeNull();
    expect(knownRunLabels(at(dir, {})).notes[0]).toContain('a run found in no shard cannot be detected');
    expect(knownRunLabels(at(dir, { L1_RUNS: 'none.json' })).problems[0]).toContain('cannot be read');
  });

  test('a shard that had no run (more shards than runs) is fine: a note, not a problem', () => {
    const empty = noRunShard(COMPLETE);
    const merged = mergeVerdictFolders([shard(entry('a')), empty]);
    expect(merged.problems).toEqual([]);
    expect(merged.notes).toEqual([`${empty}: this shard had no run to check (more shards than runs)`]);
  });
});

test('npm run merge: writes the merged folder, prints the grid and the problems, exit code 2 on a problem', () => {
  test.setTimeout(60_000); // two tsx processes: a cold transform cache takes seconds
  const out = path.join(tempDir(), 'verdicts');
  fs.mkdirSync(out);
  fs.writeFileSync(path.join(out, 'stale.json'), '{}');
  fs.writeFileSync(path.join(out, 'README.txt'), 'not a verdict file');
  const runs = path.join(tempDir(), 'runs.json');
  fs.writeFileSync(runs, JSON.stringify([{ label: 'a' }, { label: 'b' }, { label: 'c' }]));
  const one = shard(entry('a', { 5: 'fail' }));
  const two = shard(entry('b'));
  const env = { ...process.env, L1_VERDICTS_DIR: out, L1_RUNS: runs };
  const r = spawnSync(...tsScript('scripts/merge.ts', [one, two]), { cwd: REPO, env, encoding: 'utf8' });
  expect(r.stdout).toContain('run "c" of L1_RUNS found in no shard');
  expect(r.stdout).toMatch(/^a\s+·\s+·\s+FAIL/m);
  expect(r.status).toBe(2);
  // The run found in no shard is in the merged files too, which say the merge's exit code.
  const index = verdictIndexSchema.parse(JSON.parse(fs.readFileSync(path.join(out, 'index.json'), 'utf8')));
  expect(index.exitCode).toBe(2);
  expect(index.runs.map((run) => `${run.label}:${run.status}`)).toEqual([
    'a:checked',
    'b:checked',
    'c:error',
  ]);
  // Files the suite did not write stay (a `{}` is not a verdict file); the merged night is marked complete.
  expect(fs.readdirSync(out).sort()).toEqual([
    '.l1-outputs.json',
    'README.txt',
    'a.json',
    'b.json',
    'c.json',
    'index.json',
    'junit.xml',
    'stale.json',
    'summary.md',
  ]);

  // Without the missing run: the exit code is the verdicts' own (1: an item failed).
  fs.writeFileSync(runs, JSON.stringify([{ label: 'a' }, { label: 'b' }]));
  const again = spawnSync(...tsScript('scripts/merge.ts', [one, two]), { cwd: REPO, env, encoding: 'utf8' });
  expect(again.stdout).toContain('merge: exit code 1');
  expect(again.status).toBe(1);
});

test('npm run merge: a problem of the merge makes 2 even when every run passed; --shards must be 1 or more; an output folder refused is 3, nothing merged (scripts/ci/merge.sh)', () => {
  test.setTimeout(60_000); // four tsx processes
  const merge = (args: string[], out = path.join(tempDir(), 'verdicts')) =>
    spawnSync(...tsScript('scripts/merge.ts', ['--out', out, ...args]), {
      cwd: REPO,
      encoding: 'utf8',
      env: { ...process.env, L1_RUNS: '' },
    });
  const passing = shard(ofShard('1/1', entry('a')));
  const whole = merge(['--shards', '1', passing]);
  expect(whole.status, whole.stdout + whole.stderr).toBe(0);
  // A file of the folder that is not a verdict: every run passed, and the merge cannot be trusted.
  const torn = shard(ofShard('1/1', entry('a')));
  fs.writeFileSync(path.join(torn, 'b.json'), '{"run": ');
  const problem = merge([torn]);
  expect(problem.stdout).toContain('merge: PROBLEM: ');
  expect(problem.stdout).toContain('merge: exit code 2 (1 problem in the merge)');
  expect(problem.status).toBe(2);
  const zero = merge(['--shards', '0', passing]);
  expect(zero.status).toBe(2);
  expect(zero.stderr).toContain('merge: --shards must be a whole number of shards, 1 or more, got: 0');
  // A folder the suite did not make, with a file of its own beside one named as the suite's.
  const foreign = tempDir();
  fs.writeFileSync(path.join(foreign, 'index.json'), '{}');
  fs.writeFileSync(path.join(foreign, 'notes.txt'), "not the suite's");
  const refused = merge([passing], foreign);
  expect(refused.stderr).toContain('output folder refused');
  expect(refused.status).toBe(3);
  expect(fs.readdirSync(foreign).sort()).toEqual(['index.json', 'notes.txt']);
  // A file where the merged folder should go: refused naming it (file-system audit: a bare EEXIST).
  const file = path.join(tempDir(), 'verdicts');
  fs.writeFileSync(file, '');
  const onFile = merge([passing], file);
  expect(onFile.stderr).toContain(
    `merge: output folder refused: ${file} is a file, not a folder: give a folder`,
  );
  expect(onFile.status).toBe(3);
});

test('npm run merge that cannot write the merged folder part-way (a full disk, a read-only or broken folder) exits 3 naming the folder and the error, and leaves no part of the night there (file-system audit: exit 1, "some item failed", and npm run report made a passing night of the verdicts written before the error)', () => {
  test.setTimeout(30_000);
  const shards = shard(entry('a'), entry('b'), entry('c'));
  const out = path.join(tempDir(), 'verdicts');
  // b.json a folder: the merge writes a.json, then cannot put b.json in place (EISDIR), as a disk
  // that fills after the first verdict would stop it.
  fs.mkdirSync(path.join(out, 'b.json'), { recursive: true });
  const r = spawnSync(...tsScript('scripts/merge.ts', ['--out', out, shards]), {
    cwd: REPO,
    encoding: 'utf8',
    env: { ...process.env, L1_RUNS: '' },
  });
  expect(r.status, r.stdout + r.stderr).toBe(3);
  expect(r.stderr).toContain(`merge: could not write the merged verdict folder ${out}: EISDIR`);
  expect(r.stderr).toContain('merge: exit code 3 (nothing merged)');
  expect(r.stderr).not.toMatch(/^\s+at /m);
  // What it wrote went; the folder that was in the way and the merge's mark stay.
  expect(fs.readdirSync(out).sort()).toEqual(['.l1-outputs.json', 'b.json']);
  expect(readVerdictFolder(out).entries).toEqual([]);
});

test("npm run merge of a shard whose Allure results a full disk left incomplete (said in its verdict folder's mark alone) records it in the merged results folder and the merged marks: npm run report of the night refuses them (review of 2026-11-28)", () => {
  test.setTimeout(30_000);
  const one = shard(entry('a'));
  fs.writeFileSync(
    path.join(one, '.l1-outputs.json'),
    JSON.stringify({
      tool: 'l1-verify',
      invocation: 'shard-1',
      pid: 2 ** 22 + 1,
      complete: true,
      startedAt: 't',
      finishedAt: 't',
      allureIncomplete: 'ENOSPC: no space left on device, write',
    }),
  );
  const root = tempDir();
  const [out, results] = [path.join(root, 'verdicts'), path.join(root, 'allure-results')];
  const r = spawnSync(...tsScript('scripts/merge.ts', ['--out', out, '--allure-results', results, one]), {
    cwd: REPO,
    encoding: 'utf8',
    env: { ...process.env, L1_RUNS: '' },
  });
  expect(r.status, r.stdout + r.stderr).toBe(0);
  expect(incompleteResults(results)).toBe(
    `allure-playwright could not write every result to ${results} (ENOSPC: no space left on device, write): a report of them would lack what it could not write`,
  );
  for (const dir of [out, results])
    expect(JSON.parse(fs.readFileSync(path.join(dir, '.l1-outputs.json'), 'utf8'))).toMatchObject({
      allureIncomplete: 'shard invocation shard-1: ENOSPC: no space left on device, write',
    });
});

test('the scripts refuse an unknown or incomplete option with what is wrong and their usage, exit 2 (finish.sh 3), never a stack trace', () => {
  test.setTimeout(60_000); // six tsx processes
  for (const [script, args, usage, code] of [
    ['scripts/merge.ts', ['--out'], 'usage: npm run merge', 2],
    ['scripts/report.ts', ['--bogus'], 'usage: npm run report', 2],
    ['scripts/runs.ts', ['--bogus'], 'usage: npm run runs', 2],
    // A stack trace here before (README audit of 2026-11-27): Node's exit code 1.
    ['scripts/settings-table.ts', ['--bogus'], 'usage: npm run settings-table', 2],
    ['scripts/screenshots.ts', ['--bogus'], 'usage: npx tsx scripts/screenshots.ts', 2],
    // CI's last step: 1 and 2 are the verdicts' codes, 3 a step of the pipeline that failed.
    ['scripts/ci/finish.ts', ['--bogus'], 'usage: bash scripts/ci/finish.sh', 3],
  ] as const) {
    const r = spawnSync(...tsScript(script, args), { cwd: REPO, encoding: 'utf8' });
    expect(r.status, `${script}: ${r.stderr}`).toBe(code);
    expect(r.stderr).toContain(usage);
    expect(r.stderr).not.toContain('parse_args');
  }
});

test('npm run merge with settings it cannot read exits 2 naming the variable, never 1 (which reads as "some item failed")', () => {
  const r = spawnSync(...tsScript('scripts/merge.ts', ['--out', path.join(tempDir(), 'out'), tempDir()]), {
    cwd: REPO,
    encoding: 'utf8',
    env: { ...process.env, L1_WORKERS: 'two' },
  });
  expect(r.status, r.stderr).toBe(2);
  expect(r.stderr).toContain('L1_WORKERS "two"');
  expect(r.stderr).not.toMatch(/\bat .*\.ts:\d+/);
});
