import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { FileSystemWriter } from 'allure-js-commons/sdk/reporter';
import type { TestResult } from 'allure-js-commons';
import { expect, test } from './test-type';
import {
  ALLURE_WRITER_TEMP,
  ATOMIC_TEMP,
  claimOutputs,
  decideOutputs,
  emptyOwnFiles,
  handoffFile,
  foreignFolderProblem,
  holdsCompleteNight,
  MARK,
  markOutputDir,
  otherNightWarning,
  outputDirInUse,
  playwrightOutputDir,
  refusedFolder,
  releaseOutputs,
  removeOwnFolder,
  reportFolderFor,
  reportFolderProblem,
  takeHandoff,
  writeHandoff,
} from '../../lib/report/outputs';
import { finishKilledInvocations, invocationAlive, writeClaim, type Claim } from '../../lib/report/finish';
import { writeVerdictFolder } from '../../lib/report/verdict-folder';
import { descendantsOf } from '../../pages/memory';
import { invocationFolders, type Outputs } from '../../lib/run/invocation';
import { ownerAlive, removeStaleInvocations } from '../../lib/run/state';
import { writeAtomic } from '../../lib/util/atomic';
import { incompleteResults } from '../../lib/report/allure/write-guard';
import { shownPath } from '../../lib/util/shown-path';
import { readSettings, tsScript } from '../../lib/run/settings';
import { COMPLETE, fakeVerdict } from './fakes/verdicts';
import type { VerdictFile } from '../../lib/schema/verdict';
import { closeLocal, listenLocal } from './fakes/local';
import { tempDir } from './fakes/temp';
import { refusedAtLoad } from '../setup/cli';
import { SCENARIO_RUNS_FILE } from '../../demo/runs';
import { SCENARIO_ENTRIES, selectScenarios } from '../../demo/scenario-select';
import { freeTriple } from '../../scripts/bench/demo-server';

/** README.md § Results that survive every way Playwright is run: the output folders the suite owns. */

/** The processes under `pid` with their command lines (from /proc). */
const processesUnder = (pid: number): { pid: number; cmd: string }[] =>
  descendantsOf(pid).flatMap((p) => {
    try {
      return [{ pid: p, cmd: fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').replace(/\0/g, ' ') }];
    } catch {
      return []; // gone meanwhile
    }
  });

/** The checkout: the suite's own config and tools. */
const REPO = path.resolve(__dirname, '..', '..');
const outputsDir = () => tempDir('outputs');
/** A run on a port nothing listens on: its collection fails at once, and the night goes on. */
const UNREACHABLE = {
  htmlUrl: 'http://127.0.0.1:9/reports/101101/monitor/2025-11-17?companyId=1001&topic=T',
  platformUrl: 'http://127.0.0.1:9/platform/overview?projectId=101101',
};
/**
 * This process's environment for a runner or main job started here: without L1_* (each test sets
 * its own), nor this worker's own TEST_* and PLAYWRIGHT_* variables: with TEST_WORKER_INDEX
 * inherited, the job's runner took itself for a worker and ignored the stops it was sent.
 */
const childEnv = (): NodeJS.ProcessEnv =>
  Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(L1|TEST|PLAYWRIGHT)_/.test(k)));
/** The checks' environment for an invocation whose folders are all under `dir`, and `env` over it. */
const checksEnv = (dir: string, env: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  ...childEnv(),
  L1_STATE_DIR: path.join(dir, 'state'),
  L1_TEST_RESULTS_DIR: path.join(dir, 'test-results'),
  L1_VERDICTS_DIR: path.join(dir, 'verdicts'),
  L1_ALLURE_RESULTS_DIR: path.join(dir, 'allure-results'),
  L1_PARTIAL_DIR: path.join(dir, 'partial'),
  FORCE_COLOR: '0',
  ...env,
});
/** Playwright's runner of this checkout. */
const PLAYWRIGHT = path.join(REPO, 'node_modules', '.bin', 'playwright');
const settingsAt = (root: string, env: NodeJS.ProcessEnv = {}) =>
  readSettings({ root, env, dotenv: {}, now: new Date('2026-11-23T12:00:00Z'), runsOptional: true });
const PARTIAL = { filters: ['--grep item5'], shard: null, complete: false };
const NOW = new Date('2026-11-24T01:30:00Z');

test.describe('where an invocation writes', () => {
  test('a complete invocation writes the configured folders', () => {
    const root = outputsDir();
    const outputs = decideOutputs(settingsAt(root), COMPLETE, NOW);
    expect(outputs).toEqual({
      verdicts: path.join(root, 'reports', 'verdicts'),
      allureResults: path.join(root, 'allure-results'),
      partial: false,
    });
  });

  test("a partial invocation's Allure report goes beside its results; the night's to the configured folder", () => {
    const root = outputsDir();
    const s = settingsAt(root);
    const partial = decideOutputs(s, PARTIAL, NOW);
    expect(reportFolderFor(s, partial.allureResults)).toBe(
      path.join(path.dirname(partial.allureResults), 'allure-report'),
    );
    expect(reportFolderFor(s, partial.allureResults).startsWith(s.paths.partial + path.sep)).toBe(true);
    const night = decideOutputs(s, COMPLETE, NOW);
    expect(reportFolderFor(s, night.allureResults)).toBe(s.paths.allureReport);
    // Results given elsewhere (a CI shard's folder, or the partial folder itself): the configured one.
    expect(reportFolderFor(s, path.join(root, 'shards', '1', 'allure-results'))).toBe(s.paths.allureReport);
    expect(reportFolderFor(s, s.paths.partial)).toBe(s.paths.allureReport);
  });

  test('a partial invocation gets a folder of its own under reports/partial, and says why', () => {
    const root = outputsDir();
    const outputs = decideOutputs(settingsAt(root), PARTIAL, NOW);
    const folder = path.join(root, 'reports', 'partial', '20261124-013000-grep-item5');
    expect(outputs).toMatchObject({
      verdicts: path.join(folder, 'verdicts'),
      allureResults: path.join(folder, 'allure-results'),
      partial: true,
    });
    const night = [path.join(root, 'reports', 'verdicts'), path.join(root, 'allure-results')].map((p) =>
      shownPath(p),
    );
    expect(outputs.note).toContain(`the night's ${night[0]} and ${night[1]} are left as they are`);
  });

  test("two partial invocations with the same filters in the same second each get a folder of their own: the folder is made as it is decided, the second takes -2 (CLI audit of 2026-11-28: the second was refused the first one's); --list makes none", () => {
    const root = outputsDir();
    const base = path.join(root, 'reports', 'partial', '20261124-013000-grep-item5');
    const listed = decideOutputs(settingsAt(root), PARTIAL, NOW, { reserve: false });
    expect(listed.folder).toBe(base);
    expect(fs.existsSync(base)).toBe(false);
    const folders = [1, 2, 3].map(() => decideOutputs(settingsAt(root), PARTIAL, NOW).folder);
    expect(folders).toEqual([base, `${base}-2`, `${base}-3`]);
    for (const f of folders) expect(fs.statSync(f!).isDirectory()).toBe(true);
  });

  test('a partial invocation that wrote nothing into its own folder leaves none, nor the folders made for it; a partial folder made beforehand stays (review of 2026-11-28)', () => {
    const root = outputsDir();
    const made = decideOutputs(settingsAt(root), PARTIAL, NOW).folder!;
    expect(fs.existsSync(made)).toBe(true);
    removeOwnFolder(made);
    expect(fs.existsSync(path.join(root, 'reports', 'partial'))).toBe(false);
    // Given beforehand (L1_PARTIAL_DIR a user made): it stays, empty.
    const given = path.join(root, 'mine');
    fs.mkdirSync(given);
    const own = decideOutputs(settingsAt(root, { L1_PARTIAL_DIR: 'mine' }), PARTIAL, NOW).folder!;
    removeOwnFolder(own);
    expect([fs.existsSync(own), fs.existsSync(given)]).toEqual([false, true]);
    // Written into: it stays, and so does its parent.
    const used = decideOutputs(settingsAt(root), PARTIAL, NOW).folder!;
    fs.writeFileSync(path.join(used, 'index.json'), '{}');
    removeOwnFolder(used);
    expect(fs.readdirSync(used)).toEqual(['index.json']);
  });

  test('paths are shown relative to the folder the command ran in, absolute outside it (-c from another folder)', () => {
    const project = path.join(os.tmpdir(), 'l1-verify');
    const verdicts = path.join(project, 'reports', 'verdicts');
    expect(shownPath(verdicts, project)).toBe(path.join('reports', 'verdicts'));
    expect(shownPath(project, project)).toBe('.');
    // `npx playwright test -c ../l1-verify/playwright.config.ts` run from a sibling folder.
    expect(shownPath(verdicts, path.join(os.tmpdir(), 'elsewhere'))).toBe(verdicts);
    expect(shownPath(verdicts, path.join(project, 'reports', 'verdicts', 'deeper'))).toBe(verdicts);
  });

  test('folders given on the command line are used as given for a partial invocation, unless they hold a complete night', () => {
    const root = outputsDir();
    const env = { L1_VERDICTS_DIR: 'shard/verdicts', L1_ALLURE_RESULTS_DIR: 'shard/allure-results' };
    expect(decideOutputs(settingsAt(root, env), PARTIAL, NOW)).toEqual({
      verdicts: path.join(root, 'shard', 'verdicts'),
      allureResults: path.join(root, 'shard', 'allure-results'),
      partial: true,
    });
    writeVerdictFolder(
      path.join(root, 'shard', 'verdicts'),
      [{ file: 'a.json', verdict: fakeVerdict('a', { 3: 'pass' }) }],
      COMPLETE,
    );
    expect(holdsCompleteNight(path.join(root, 'shard', 'verdicts'))).toBe(true);
    expect(decideOutputs(settingsAt(root, env), PARTIAL, NOW).verdicts).toContain(
      path.join('reports', 'partial'),
    );
  });
});

test('a partial invocation the next morning is told when its relative batch date is not the night it investigates (time audit of 2026-11-28)', () => {
  const verdicts = outputsDir();
  const night = (batchDate: string, given: string) => ({
    batchDate,
    given,
    timeZone: 'Asia/Shanghai',
    describe: `${batchDate} (${given})`,
  });
  // The night (scheduled the morning of 11-27) checked 11-26; the next morning `yesterday` is 11-27.
  writeVerdictFolder(
    verdicts,
    [
      {
        file: 'a.json',
        verdict: fakeVerdict('a', { 5: 'fail' }, { night: night('2026-11-26', 'yesterday') }),
      },
    ],
    COMPLETE,
  );
  expect(otherNightWarning(verdicts, night('2026-11-27', 'yesterday'))).toBe(
    `this invocation checks batch date 2026-11-27 (yesterday), but the night in ${shownPath(verdicts)} checked 2026-11-26: to investigate that night, set L1_BATCH_DATE=2026-11-26`,
  );
  // The same day, a date written out (meant), no templated run, or no night there: nothing.
  expect(otherNightWarning(verdicts, night('2026-11-26', 'yesterday'))).toBeUndefined();
  expect(otherNightWarning(verdicts, night('2026-11-20', '2026-11-20'))).toBeUndefined();
  expect(otherNightWarning(verdicts, undefined)).toBeUndefined();
  expect(otherNightWarning(outputsDir(), night('2026-11-27', '-1'))).toBeUndefined();
});

test('a night that runs for more than a day keeps its state and handoff when another invocation sweeps the day-old ones; a dead one loses them (time audit of 2026-11-28)', () => {
  const state = path.join(outputsDir(), 'state');
  const twoDaysAgo = new Date(Date.now() - 48 * 3600_000);
  const leave = (id: string, pid: number) => {
    const { dir } = invocationFolders(state, id);
    fs.mkdirSync(path.join(dir, 'runs'), { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'claimed.json'),
      // Its start as the claim says it (after this process began: the runner's pid is its own).
      JSON.stringify({ pid, invocation: { id, dir, startedAt: new Date().toISOString() } }),
    );
    writeHandoff(state, { verdicts: 'v', allureResults: 'a', partial: false }, id, true);
    for (const made of [dir, handoffFile(state, id)]) fs.utimesSync(made, twoDaysAgo, twoDaysAgo);
  };
  // This process stands for the runner of a long night, still alive; the other's is gone.
  leave('long-night', process.pid);
  leave('dead-night', 2 ** 22 + 1);
  removeStaleInvocations(state, (id) => invocationAlive(state, id));
  expect(fs.readdirSync(path.join(state, 'invocations'))).toEqual(['long-night']);
  expect(fs.readdirSync(path.join(state, 'handoffs'))).toEqual(['long-night.json']);
});

test.describe('folders the suite refuses', () => {
  test('the project root, its parents, the home folder and a symbolic link', () => {
    const root = outputsDir();
    expect(refusedFolder(root, root)).toContain('the project root or one of its parents');
    expect(refusedFolder(path.dirname(root), root)).toContain('the project root or one of its parents');
    expect(refusedFolder('/', root)).toContain('the project root or one of its parents');
    expect(refusedFolder(os.homedir(), root)).toBeDefined();
    const real = path.join(root, 'real');
    fs.mkdirSync(real);
    fs.symlinkSync(real, path.join(root, 'link'));
    expect(refusedFolder(path.join(root, 'link'), root)).toContain('symbolic link');
    expect(refusedFolder(path.join(root, 'reports', 'verdicts'), root)).toBeUndefined();
  });

  test('claiming a refused folder throws with the reason; nothing is removed', () => {
    const root = outputsDir();
    fs.writeFileSync(path.join(root, 'keep.json'), '{}');
    expect(() =>
      claimOutputs({ verdicts: root, allureResults: '', partial: false }, { id: 'x', startedAt: '' }, root),
    ).toThrow(/output folder refused: .*project root/);
    expect(fs.existsSync(path.join(root, 'keep.json'))).toBe(true);
  });
});

test.describe('the report folder, which npm run report removes whole before it generates', () => {
  test('refused: the root and its parents, a folder that is or holds another output folder, one holding foreign files', () => {
    const root = outputsDir();
    const others = {
      'verdict folder': path.join(root, 'reports', 'verdicts'),
      'Allure results': path.join(root, 'allure-results'),
    };
    expect(reportFolderProblem(root, others, root)).toContain('the project root or one of its parents');
    // L1_ALLURE_REPORT_DIR=reports, meant for reports/allure: every verdict folder would go with it.
    expect(reportFolderProblem(path.join(root, 'reports'), others, root)).toContain(
      'is or holds the verdict folder',
    );
    expect(reportFolderProblem(others['Allure results'], others, root)).toContain(
      'is or holds the Allure results',
    );
    const docs = path.join(root, 'docs');
    fs.mkdirSync(docs);
    fs.writeFileSync(path.join(docs, 'guide.md'), 'keep');
    expect(reportFolderProblem(docs, others, root)).toContain(
      'holds files an Allure report does not (guide.md)',
    );
  });

  test('allowed: a folder not there yet, an empty one, one holding an earlier report only', () => {
    const root = outputsDir();
    const others = { 'verdict folder': path.join(root, 'reports', 'verdicts') };
    const report = path.join(root, 'allure-report');
    expect(reportFolderProblem(report, others, root)).toBeUndefined();
    fs.mkdirSync(report);
    expect(reportFolderProblem(report, others, root)).toBeUndefined();
    for (const f of ['index.html', 'summary.json', 'test-results.json'])
      fs.writeFileSync(path.join(report, f), '');
    expect(reportFolderProblem(report, others, root)).toBeUndefined();
    // Beside the verdicts (reports/allure-report) is fine: neither holds the other.
    expect(reportFolderProblem(path.join(root, 'reports', 'allure-report'), others, root)).toBeUndefined();
  });
});

/** The names of the files renamed (from) while `write` ran: a writer's temporary files, as it names them. */
function renamedDuring(write: () => void): string[] {
  const names: string[] = [];
  const rename = fs.renameSync;
  fs.renameSync = (from: fs.PathLike, to: fs.PathLike) => {
    names.push(path.basename(String(from)));
    rename(from, to);
  };
  try {
    write();
  } finally {
    fs.renameSync = rename;
  }
  return names;
}

test.describe('a write the file system refuses (file-system audit of 2026-11-28)', () => {
  test('a full disk (ENOSPC, whose error names no path) is told with the file being written, keeps its code, and leaves neither the file nor a temporary one', () => {
    const dir = outputsDir();
    const file = path.join(dir, 'A-monitor.json');
    const write = fs.writeFileSync;
    (fs as { writeFileSync: unknown }).writeFileSync = () => {
      // As Node's write(2) error on a full disk: a code and a syscall, no path.
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), {
        code: 'ENOSPC',
        errno: -28,
        syscall: 'write',
      });
    };
    let thrown: NodeJS.ErrnoException | undefined;
    try {
      writeAtomic(file, '{}');
    } catch (e) {
      thrown = e as NodeJS.ErrnoException;
    } finally {
      (fs as { writeFileSync: unknown }).writeFileSync = write;
    }
    expect(thrown?.code).toBe('ENOSPC');
    expect(thrown?.message).toBe(`ENOSPC: no space left on device, write (writing ${file})`);
    // Once, not twice (the stack is formatted when first read: a full night showed it doubled).
    expect(thrown?.stack?.split('\n')[0]).toBe(
      `Error: ENOSPC: no space left on device, write (writing ${file})`,
    );
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  test('near miss: an error that names its path already (a folder that cannot be made) is thrown as Node gave it', () => {
    const dir = outputsDir();
    fs.writeFileSync(path.join(dir, 'a-file'), 'x');
    const file = path.join(dir, 'a-file', 'A-monitor.json');
    expect(() => writeAtomic(file, '{}')).toThrow(
      /^ENOTDIR: not a directory, open '[^']+A-monitor\.json\.[^']+\.tmp'$/,
    );
  });
});

test.describe('emptying removes only what the suite wrote', () => {
  test('verdict folder: its verdicts and extras go; an unrelated file, a .git folder and a non-verdict JSON stay', () => {
    const dir = outputsDir();
    writeVerdictFolder(dir, [{ file: 'a.json', verdict: fakeVerdict('a', { 3: 'pass' }) }], COMPLETE);
    fs.writeFileSync(path.join(dir, 'console.log'), 'x');
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'mine');
    fs.writeFileSync(path.join(dir, 'package.json'), '{"name": "not a verdict"}');
    fs.mkdirSync(path.join(dir, '.git'));
    const { kept } = emptyOwnFiles(dir, 'verdicts');
    expect(fs.readdirSync(dir).sort()).toEqual(['.git', 'notes.txt', 'package.json']);
    expect(kept.sort()).toEqual(['.git', 'notes.txt', 'package.json']);
  });

  test('Allure results: allure-playwright `<uuid>-…` files and the suite `l1-…` files go; the rest stays', () => {
    const dir = outputsDir();
    const uuid = '0112052f-b13f-45d7-a597-11a7be9f2669';
    for (const f of [
      `${uuid}-result.json`,
      `${uuid}-attachment.csv`,
      `${uuid}-container.json`,
      'l1-summary-x-globals.json',
      'environment.properties',
      'keep.txt',
    ])
      fs.writeFileSync(path.join(dir, f), 'x');
    emptyOwnFiles(dir, 'allure-results');
    expect(fs.readdirSync(dir)).toEqual(['keep.txt']);
  });

  test("a killed write's temporary file, named as the atomic writer names it, is the suite's: removed, not kept as foreign", () => {
    const dir = outputsDir();
    // The names writeAtomic gives its temporary files, as it gives them.
    const scratch = outputsDir();
    const names = renamedDuring(() => {
      writeAtomic(path.join(scratch, 'A-monitor.json'), '{}');
      writeAtomic(path.join(scratch, 'index.json'), '{}');
    });
    expect(names).toHaveLength(2);
    for (const name of names) expect(name).toMatch(ATOMIC_TEMP);
    // Left behind by a killed write: the suite's, in either folder; a look-alike of another file is not.
    const results = outputsDir();
    for (const name of names) fs.writeFileSync(path.join(dir, name), '{');
    fs.writeFileSync(path.join(dir, names[0]!.replace('A-monitor.json', 'notes.txt')), 'x');
    fs.writeFileSync(path.join(results, `l1-summary.json${names[0]!.slice('A-monitor.json'.length)}`), '{');
    fs.writeFileSync(path.join(results, `${MARK}${names[0]!.slice('A-monitor.json'.length)}`), '{');
    expect(emptyOwnFiles(dir, 'verdicts')).toEqual({
      removed: 2,
      kept: [names[0]!.replace('A-monitor.json', 'notes.txt')],
    });
    expect(emptyOwnFiles(results, 'allure-results')).toEqual({ removed: 2, kept: [] });
  });

  test("allure-playwright's temporary file, left by a killed night (SIGKILL), is the suite's: an unmarked results folder holding it is claimed and emptied, not refused", () => {
    // The name allure-js-commons' FileSystemWriter gives its temporary file, as it gives it.
    const scratch = outputsDir();
    const names = renamedDuring(() =>
      new FileSystemWriter({ resultsDir: scratch }).writeResult({ uuid: randomUUID() } as TestResult),
    );
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(ALLURE_WRITER_TEMP);
    // A folder whose mark a merge removed (scripts/ci/merge.sh), holding results and such a file.
    const results = outputsDir();
    fs.writeFileSync(path.join(results, `${randomUUID()}-result.json`), '{}');
    fs.writeFileSync(path.join(results, names[0]!), '{');
    expect(foreignFolderProblem(results, 'allure-results')).toBeUndefined();
    expect(emptyOwnFiles(results, 'allure-results')).toEqual({ removed: 2, kept: [] });
    // Only that name: a look-alike is not the suite's.
    fs.writeFileSync(path.join(results, '.allure-write-notes.tmp'), 'x');
    expect(emptyOwnFiles(results, 'allure-results').kept).toEqual(['.allure-write-notes.tmp']);
  });

  test("a folder the suite did not make, holding unrelated files beside files of the suite's names, is refused and keeps every file", () => {
    const root = outputsDir();
    const foreign = path.join(root, 'site');
    fs.mkdirSync(foreign);
    const files = { 'notes.txt': 'mine', 'index.json': '{"my":"site index"}', 'junit.xml': '<testsuites/>' };
    for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(foreign, name), text);
    const claim = (verdicts: string, allureResults = '') =>
      claimOutputs({ verdicts, allureResults, partial: false }, { id: 'x', startedAt: '' }, root);
    expect(() => claim(foreign)).toThrow(
      /output folder refused: .*site was not made by the suite \(no \.l1-outputs\.json\) and holds files it did not write \(notes\.txt\) beside files named as the suite's \((index\.json, junit\.xml|junit\.xml, index\.json)\).*give L1_VERDICTS_DIR/,
    );
    // Refused before anything is emptied, in either folder.
    const results = path.join(root, 'results');
    fs.mkdirSync(results);
    fs.writeFileSync(path.join(results, 'environment.properties'), 'a=b');
    fs.writeFileSync(path.join(results, 'keep.txt'), 'mine');
    expect(() => claim(path.join(root, 'fresh'), results)).toThrow(/give L1_ALLURE_RESULTS_DIR/);
    expect(fs.existsSync(path.join(root, 'fresh'))).toBe(false);
    for (const [name, text] of Object.entries(files))
      expect(fs.readFileSync(path.join(foreign, name), 'utf8')).toBe(text);
    expect(fs.readdirSync(results).sort()).toEqual(['environment.properties', 'keep.txt']);
  });

  test("claimed: a folder without a mark holding the suite's files alone, or unrelated files alone; a marked one with both", () => {
    const root = outputsDir();
    const claim = (verdicts: string, id = 'x') =>
      claimOutputs({ verdicts, allureResults: '', partial: false }, { id, startedAt: '' }, root);
    const ours = path.join(root, 'ours');
    writeVerdictFolder(ours, [{ file: 'a.json', verdict: fakeVerdict('a', { 3: 'pass' }) }], COMPLETE);
    expect(claim(ours)).toEqual([]);
    expect(fs.readdirSync(ours)).toEqual([MARK]);
    const theirs = path.join(root, 'theirs');
    fs.mkdirSync(theirs);
    fs.writeFileSync(path.join(theirs, 'notes.txt'), 'mine');
    expect(claim(theirs)[0]).toContain('1 file(s) the suite did not write are left in place (notes.txt)');
    // Now the suite's (its mark): its own files go at the next claim, the unrelated one stays.
    releaseOutputs({ verdicts: theirs, allureResults: '', partial: false }, 'x');
    writeVerdictFolder(theirs, [{ file: 'a.json', verdict: fakeVerdict('a', { 3: 'pass' }) }], COMPLETE);
    claim(theirs, 'y');
    expect(fs.readdirSync(theirs).sort()).toEqual([MARK, 'notes.txt']);
  });

  test('a folder another live invocation writes is refused; a finished one is taken over', () => {
    const root = outputsDir();
    const outputs = { verdicts: path.join(root, 'v'), allureResults: path.join(root, 'a'), partial: false };
    claimOutputs(outputs, { id: 'first', startedAt: 't' }, root);
    const mark = JSON.parse(fs.readFileSync(path.join(outputs.verdicts, MARK), 'utf8')) as {
      complete: boolean;
    };
    expect(mark.complete).toBe(true);
    expect(() => claimOutputs(outputs, { id: 'second', startedAt: 't' }, root)).toThrow(
      /is being written by another invocation \(process \d+\)/,
    );
    releaseOutputs(outputs, 'first');
    expect(() => claimOutputs(outputs, { id: 'second', startedAt: 't' }, root)).not.toThrow();
  });

  test("a refused claim makes no folder: the claim's locks make each output folder's parent, after the refusals (review of 2026-11-28: a refused folder left the parents made for its lock)", () => {
    const root = outputsDir();
    const parent = path.join(root, 'new-parent');
    const outputs = { verdicts: path.join(parent, 'v'), allureResults: root, partial: false };
    expect(() => claimOutputs(outputs, { id: 'x', startedAt: 't' }, root)).toThrow(/output folder refused/);
    expect(fs.existsSync(parent)).toBe(false);
  });

  test("two invocations claiming one folder at once: the second waits for the first's claim, then is refused (README-as-contract audit of 2026-11-28: both read no mark, both wrote theirs, and both wrote the night into one folder)", async () => {
    const root = outputsDir();
    const outputs = { verdicts: path.join(root, 'v'), allureResults: '', partial: false };
    // Another invocation in the middle of its claim: it holds the claim's lock, and writes its mark
    // 400 ms later, as a claim that empties a large folder first would.
    const holder = holdingClaimLock(outputs.verdicts, 400);
    try {
      await expect.poll(() => fs.existsSync(claimLockOf(outputs.verdicts, 'pid'))).toBe(true);
      expect(() => claimOutputs(outputs, { id: 'second', startedAt: 't' }, root)).toThrow(
        `is being written by another invocation (process ${holder.pid})`,
      );
    } finally {
      holder.kill();
    }
  });

  test("a parent that refuses the claim's lock folder beside a folder it may write (read-only, or a name too long with the lock's prefix and suffix) leaves the claim as it was before the lock: the folder is claimed (review of 2026-11-28: refused with EACCES or ENAMETOOLONG)", () => {
    const root = outputsDir();
    const readOnly = { verdicts: path.join(root, 'v'), allureResults: path.join(root, 'a'), partial: false };
    fs.mkdirSync(readOnly.verdicts);
    withLockFoldersRefused(() => claimOutputs(readOnly, { id: 'ro', startedAt: 't' }, root));
    expect(fs.readdirSync(readOnly.verdicts)).toEqual([MARK]);
    expect(fs.readdirSync(readOnly.allureResults)).toEqual([MARK]);
    // 250 bytes: a name the file system takes; `.<name>.l1-claim` is 260, which it refuses.
    const long = { verdicts: path.join(root, 'v'.repeat(250)), allureResults: '', partial: false };
    claimOutputs(long, { id: 'long', startedAt: 't' }, root);
    expect(fs.readdirSync(long.verdicts)).toEqual([MARK]);
    // Still one at a time where the lock can be made: a live claim is refused, no lock folder stays.
    expect(() =>
      claimOutputs(
        { verdicts: long.verdicts, allureResults: readOnly.allureResults, partial: false },
        { id: 'other', startedAt: 't' },
        root,
      ),
    ).toThrow('is being written by another invocation');
    expect(fs.readdirSync(root).filter((n) => n.endsWith('.l1-claim'))).toEqual([]);
  });
});

test("a claim whose lock another process holds for the whole wait is refused naming the output folder, the lock's path and what to do (review of 2026-11-28: 'waited 30000 ms for .v.l1-claim held by process N', no folder)", async () => {
  const root = outputsDir();
  const outputs = { verdicts: path.join(root, 'v'), allureResults: '', partial: false };
  const lock = claimLockOf(outputs.verdicts);
  // A live process that took the lock and keeps it (a claim stopped half-way: SIGSTOP, a hung disk).
  const holder = holdingClaimLock(outputs.verdicts);
  try {
    await expect.poll(() => fs.existsSync(path.join(lock, 'pid'))).toBe(true);
    expect(() => claimOutputs(outputs, { id: 'second', startedAt: 't' }, root, 300)).toThrow(
      `output folder refused: ${outputs.verdicts} is being claimed by another invocation (process ${holder.pid}), which held the claim's lock ${lock} for all of 300 ms: run one at a time; if no invocation of the suite runs, remove ${lock}`,
    );
    expect(fs.existsSync(outputs.verdicts)).toBe(false);
  } finally {
    holder.kill();
  }
});

/** The claim's lock folder beside output folder `dir` (lib/report/outputs.ts), or a file in it. */
function claimLockOf(dir: string, ...inside: string[]): string {
  return path.join(path.dirname(dir), `.${path.basename(dir)}.l1-claim`, ...inside);
}

/**
 * Another process in the middle of its claim of `dir`: it holds the claim's lock (its pid file is
 * there once it does) and, `markAfterMs` later, writes its mark of invocation `first` and lets the
 * lock go; it lives on for 20 s, a live holder, until killed.
 */
function holdingClaimLock(dir: string, markAfterMs?: number): ChildProcess {
  return spawn(
    process.execPath,
    [
      '-e',
      `const fs = require('fs'), path = require('path');
       const [dir, lock, after] = process.argv.slice(1);
       fs.mkdirSync(lock); fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
       if (after) setTimeout(() => {
         fs.mkdirSync(dir, { recursive: true });
         const mark = { tool: 'l1-verify', invocation: 'first', pid: process.pid, complete: true, startedAt: new Date().toISOString() };
         fs.writeFileSync(path.join(dir, '${MARK}'), JSON.stringify(mark));
         fs.rmSync(lock, { recursive: true });
       }, Number(after));
       setTimeout(() => {}, 20000);`,
      dir,
      claimLockOf(dir),
      markAfterMs === undefined ? '' : String(markAfterMs),
    ],
    { stdio: 'ignore' },
  );
}

/**
 * `fs.mkdirSync` refusing the claim's lock folders as a read-only parent does (EACCES), for the
 * length of `body`: the unit tests run as root too, to whom no mode refuses a folder.
 */
function withLockFoldersRefused<T>(body: () => T): T {
  const mkdir = fs.mkdirSync;
  const refusing = (dir: fs.PathLike, options?: fs.MakeDirectoryOptions) =>
    String(dir).endsWith('.l1-claim')
      ? (() => {
          throw Object.assign(new Error(`EACCES: permission denied, mkdir '${String(dir)}'`), {
            code: 'EACCES',
          });
        })()
      : mkdir(dir, options);
  fs.mkdirSync = refusing as typeof fs.mkdirSync;
  try {
    return body();
  } finally {
    fs.mkdirSync = mkdir;
  }
}

test.describe('a night killed before it finished (npm run report: lib/report/finish.ts)', () => {
  /** Every file of a folder and its content. */
  const snapshot = (dir: string) =>
    Object.fromEntries(fs.readdirSync(dir).map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')]));
  /** A pid no process has (above Linux's largest pid_max). */
  const DEAD_PID = 2 ** 22 + 1;
  /** Night `id` claims `outputs` as its setup does, from a process that is gone since. */
  function killedNight(state: string, root: string, id: string, outputs: Outputs): Claim {
    claimOutputs(outputs, { id, startedAt: 't' }, root);
    const markFile = path.join(outputs.verdicts, MARK);
    const mark = JSON.parse(fs.readFileSync(markFile, 'utf8')) as { pid: number };
    fs.writeFileSync(markFile, JSON.stringify({ ...mark, pid: DEAD_PID }));
    const run = settingsAt(root, {
      L1_HTML_URL: 'http://h.test/reports/101101/monitor/2026-11-10?companyId=1001',
      L1_PLATFORM_URL: 'http://h.test/platform/projects/101101/overview',
    }).runs[0]!;
    const claim = {
      pid: DEAD_PID,
      invocation: {
        id,
        startedAt: 't',
        ...invocationFolders(state, id),
        selection: COMPLETE,
        outputs,
      },
      runs: [run],
      allure: false,
      keepState: false,
      facts: {},
    } as unknown as Claim;
    fs.mkdirSync(claim.invocation.dir, { recursive: true });
    writeClaim(claim);
    return claim;
  }

  test('its night files list the runs in one order, by file name, as npm run report and a merge do: not in the runs file order (reader audit)', () => {
    const root = outputsDir();
    const state = path.join(root, 'state');
    const outputs = { verdicts: path.join(root, 'verdicts'), allureResults: '', partial: false };
    const claim = killedNight(state, root, 'night-1', outputs);
    const [first] = claim.runs;
    claim.runs = ['zeta', 'alpha', 'mu'].map((label) => ({ ...first!, label, slug: label }));
    writeClaim(claim);
    finishKilledInvocations(state);
    const md = fs.readFileSync(path.join(outputs.verdicts, 'summary.md'), 'utf8');
    const rows = md.split('\n').flatMap((l) => /^\| (alpha|mu|zeta) \|/.exec(l)?.slice(1) ?? []);
    expect(rows).toEqual(['alpha', 'mu', 'zeta']);
    const index = JSON.parse(fs.readFileSync(path.join(outputs.verdicts, 'index.json'), 'utf8')) as {
      runs: { label: string }[];
    };
    expect(index.runs.map((r) => r.label)).toEqual(['alpha', 'mu', 'zeta']);
  });

  test('finished into its own folders: its runs marked interrupted, its state removed', () => {
    const root = outputsDir();
    const state = path.join(root, 'state');
    const outputs = { verdicts: path.join(root, 'verdicts'), allureResults: '', partial: false };
    const claim = killedNight(state, root, 'night-1', outputs);
    const [line, ...more] = finishKilledInvocations(state);
    expect(more).toEqual([]);
    expect(line).toMatch(/^finished invocation night-1, which was killed: 1 verdict\(s\) in /);
    const verdict = JSON.parse(
      fs.readFileSync(path.join(outputs.verdicts, `${claim.runs[0]!.slug}.json`), 'utf8'),
    ) as { reason: string };
    expect(verdict.reason).toContain('killed');
    expect(fs.existsSync(path.join(outputs.verdicts, 'index.json'))).toBe(true);
    expect(fs.existsSync(claim.invocation.dir)).toBe(false);
  });

  test("a run the killed night never started has its URLs' facts and the night's Profile B, from the claim: the process that finishes it may have other settings, or none (review of 2026-11-28: in demo mode npm run report wrote Profile B runs as A)", () => {
    const root = outputsDir();
    const state = path.join(root, 'state');
    const outputs = { verdicts: path.join(root, 'verdicts'), allureResults: '', partial: false };
    const claim = killedNight(state, root, 'night-1', outputs);
    writeClaim({ ...claim, profileB: { companyId: 1001 } });
    finishKilledInvocations(state);
    const verdict = JSON.parse(
      fs.readFileSync(path.join(outputs.verdicts, `${claim.runs[0]!.slug}.json`), 'utf8'),
    ) as VerdictFile;
    expect(verdict.run).toMatchObject({
      companyId: 1001,
      projectId: '101101',
      batchDate: '2026-11-10',
      profile: 'B',
    });
  });

  test("a killed night whose runner's pid another process has taken since (a later start) is finished, not taken for running: npm run report then wrote the index of its partial folder as the whole night (file-system audit)", () => {
    const root = outputsDir();
    const state = path.join(root, 'state');
    const outputs = { verdicts: path.join(root, 'verdicts'), allureResults: '', partial: false };
    const killed = killedNight(state, root, 'night-1', outputs);
    // Its pid is now this test runner's parent, which started after the night began in 2020.
    writeClaim({
      ...killed,
      pid: process.ppid,
      invocation: { ...killed.invocation, startedAt: '2020-01-01T00:00:00.000Z' },
    });
    expect(finishKilledInvocations(state)).toEqual([
      `finished invocation night-1, which was killed: 1 verdict(s) in ${outputs.verdicts}`,
    ]);
    // Near miss: a claim begun after its live process started is that process's, left alone.
    const running = killedNight(path.join(root, 'state-2'), root, 'night-2', {
      ...outputs,
      verdicts: path.join(root, 'verdicts-2'),
    });
    writeClaim({
      ...running,
      pid: process.ppid,
      invocation: { ...running.invocation, startedAt: new Date().toISOString() },
    });
    expect(finishKilledInvocations(path.join(root, 'state-2'))).toEqual([]);
  });

  test("a killed night whose Allure results a full disk left incomplete, recorded in its state folder only (its results folder could not be written): npm run report's finish records it in the results folder again and in both folders' marks (review of 2026-11-28)", () => {
    const root = outputsDir();
    const state = path.join(root, 'state');
    const outputs = {
      verdicts: path.join(root, 'verdicts'),
      allureResults: path.join(root, 'allure-results'),
      partial: false,
    };
    // An id of its own: a runner keeps what its guard recorded by invocation id in memory, and
    // another test of this worker (allure-reporters.spec.ts) recorded a night-1 of its own.
    const id = `night-${randomUUID()}`;
    const claim = killedNight(state, root, id, outputs);
    writeClaim({ ...claim, allure: true });
    // As the killed runner's guard kept it (lib/report/allure/write-guard.ts).
    fs.writeFileSync(
      path.join(claim.invocation.dir, 'allure-incomplete.json'),
      JSON.stringify({ invocation: id, error: 'ENOSPC: no space left on device, write' }),
    );
    expect(incompleteResults(outputs.allureResults)).toBeUndefined();
    finishKilledInvocations(state);
    expect(incompleteResults(outputs.allureResults)).toBe(
      `allure-playwright could not write every result to ${outputs.allureResults} (ENOSPC: no space left on device, write): a report of them would lack what it could not write`,
    );
    for (const dir of [outputs.verdicts, outputs.allureResults])
      expect(JSON.parse(fs.readFileSync(path.join(dir, MARK), 'utf8'))).toMatchObject({
        invocation: id,
        allureIncomplete: 'ENOSPC: no space left on device, write',
        finishedAt: expect.any(String),
      });
    // The next night's claim: a mark of its own, and the record, a file of the suite's, removed.
    claimOutputs(outputs, { id: 'night-2', startedAt: 't' }, root);
    expect(incompleteResults(outputs.allureResults)).toBeUndefined();
    expect(JSON.parse(fs.readFileSync(path.join(outputs.verdicts, MARK), 'utf8'))).not.toHaveProperty(
      'allureIncomplete',
    );
  });

  test("a later night that claimed its folders since keeps them: the killed night's verdicts never replace its own", () => {
    const root = outputsDir();
    const state = path.join(root, 'state');
    const outputs = { verdicts: path.join(root, 'verdicts'), allureResults: '', partial: false };
    const killed = killedNight(state, root, 'night-1', outputs);
    // The next night starts without `npm run report`: its setup claims and empties the folder.
    expect(claimOutputs(outputs, { id: 'night-2', startedAt: 't' }, root)).toEqual([
      `${outputs.verdicts} held the outputs of invocation night-1, which did not finish (killed, with no npm run report after it): replaced by this invocation's`,
    ]);
    const tonight = fakeVerdict(killed.runs[0]!.slug, { 5: 'fail' });
    writeVerdictFolder(
      outputs.verdicts,
      [{ file: `${killed.runs[0]!.slug}.json`, verdict: tonight }],
      COMPLETE,
    );
    const before = snapshot(outputs.verdicts);
    const [line, ...more] = finishKilledInvocations(state);
    expect(more).toEqual([]);
    expect(line).toMatch(
      /^invocation night-1 was killed, and invocation night-2 has written its output folder since .*: its 1 verdict\(s\) are not written over that one's; its state was removed$/,
    );
    expect(snapshot(outputs.verdicts)).toEqual(before);
    expect(fs.existsSync(killed.invocation.dir)).toBe(false);
    expect(finishKilledInvocations(state)).toEqual([]);
  });
});

test("a holder's pid taken by a process that started after the holder began is not the holder: a mark of a killed runner never blocks a later night", () => {
  const now = new Date().toISOString();
  // The parent process (this test runner) started before now: it may hold what it began now.
  expect(ownerAlive(process.ppid, now)).toBe(true);
  // A mark begun in 2020 whose pid is now the parent's: the parent started after it, so it is
  // another process with a reused pid.
  expect(ownerAlive(process.ppid, '2020-01-01T00:00:00.000Z')).toBe(false);
  expect(ownerAlive(spawnSync(process.execPath, ['-e', '0']).pid!, now)).toBe(false);
  expect(ownerAlive(process.ppid, 'not a time')).toBe(true); // cannot tell: alive is enough
  const dir = path.join(outputsDir(), 'test-results');
  markOutputDir(dir, {
    id: 'old',
    startedAt: '2020-01-01T00:00:00.000Z',
    outputs: { verdicts: '', allureResults: '', partial: false },
  });
  const mark = path.join(dir, MARK);
  fs.writeFileSync(mark, JSON.stringify({ ...JSON.parse(fs.readFileSync(mark, 'utf8')), pid: process.ppid }));
  expect(outputDirInUse(dir)).toBeUndefined();
});

test("Playwright's output folder of a partial invocation with a folder of its own is in that folder: a morning's --grep never empties the night's", () => {
  const root = outputsDir();
  const configured = path.join(root, 'test-results');
  const night = decideOutputs(settingsAt(root), COMPLETE, NOW);
  expect(playwrightOutputDir(night, configured, false)).toBe(configured);
  const morning = decideOutputs(settingsAt(root), PARTIAL, NOW);
  expect(playwrightOutputDir(morning, configured, false)).toBe(path.join(morning.folder!, 'test-results'));
  // `--output DIR` on the command line is Playwright's own override: as given.
  expect(playwrightOutputDir(morning, '/given', true)).toBe('/given');
});

test("Playwright's output folder, which its runner empties before global setup: another live runner's is refused as the config loads", () => {
  const dir = path.join(outputsDir(), 'test-results');
  expect(outputDirInUse(dir)).toBeUndefined(); // not there yet
  markOutputDir(dir, {
    id: 'night',
    startedAt: 't',
    outputs: { verdicts: '', allureResults: '', partial: false },
  });
  expect(outputDirInUse(dir)).toBeUndefined(); // this runner's own
  // Read by another runner while this one (here: the parent process, alive) runs.
  const mark = path.join(dir, MARK);
  const rewrite = (pid: number) =>
    fs.writeFileSync(mark, JSON.stringify({ ...JSON.parse(fs.readFileSync(mark, 'utf8')), pid }));
  rewrite(process.ppid);
  expect(outputDirInUse(dir)).toBe(
    `${dir} (Playwright's output folder, which it empties at start) is in use by another invocation (process ${process.ppid}): run one at a time, or give each its own L1_TEST_RESULTS_DIR (and L1_VERDICTS_DIR, L1_ALLURE_RESULTS_DIR); nothing was removed`,
  );
  // Finished (its teardown, or npm run report after a kill): free, whatever has its pid since.
  releaseOutputs({ verdicts: '', allureResults: '', partial: false }, 'night', [dir]);
  expect(outputDirInUse(dir)).toBeUndefined();
  rewrite(spawnSync(process.execPath, ['-e', '0']).pid!);
  fs.writeFileSync(
    mark,
    JSON.stringify({ ...JSON.parse(fs.readFileSync(mark, 'utf8')), finishedAt: undefined }),
  );
  expect(outputDirInUse(dir)).toBeUndefined(); // a runner that has ended without finishing
});

/**
 * `npx playwright test --last-failed ARGS` over the unreachable run, with `record` as the night's
 * `.last-run.json`: no test reaches a page; the output and the folders it leaves.
 */
function lastFailedInvocation(
  record: object,
  args: string[],
  before: (state: string) => void = () => {},
  env: NodeJS.ProcessEnv = {},
) {
  const dir = tempDir('last-failed');
  before(path.join(dir, 'state'));
  const runs = path.join(dir, 'runs.json');
  fs.writeFileSync(runs, JSON.stringify([UNREACHABLE]));
  const file = path.join(dir, 'test-results', '.last-run.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(record));
  const r = spawnSync(PLAYWRIGHT, ['test', '--last-failed', '--reporter=dot', ...args], {
    cwd: REPO,
    encoding: 'utf8',
    timeout: 60_000,
    env: checksEnv(dir, { L1_RUNS: runs, ...env }),
  });
  return { code: r.status, out: `${r.stdout}${r.stderr}`, dir, record: file };
}

test("a complete invocation refused for its command line or settings (--trace, a --timeout under a second, an Allure reporter on the command line, L1_CHROMIUM_PATH, L1_SECTION_SELECTORS) is refused as the config loads: the night's Playwright folder keeps its record of failed tests and its evidence (CLI audit of 2026-11-28: refused in global setup, Playwright had emptied it, and --last-failed found nothing to re-run)", () => {
  // Each refusal, as the config asks for it (tests/setup/cli.ts refusedAtLoad)…
  const settingsOf = (env: NodeJS.ProcessEnv) => settingsAt(outputsDir(), env);
  const cases: [string[], NodeJS.ProcessEnv, RegExp][] = [
    [['--trace', 'on'], {}, /^--trace on is refused/],
    [['--timeout', '500'], {}, /^--timeout 500 is refused/],
    [['--add-reporter', 'allure-playwright'], {}, /^--add-reporter=allure-playwright is refused/],
    [['--reporter=dot,allure-playwright'], {}, /^--reporter=allure-playwright is refused/],
    [
      [],
      { L1_CHROMIUM_PATH: '/nonexistent/chromium' },
      /^L1_CHROMIUM_PATH \/nonexistent\/chromium: no such file/,
    ],
    [[], { L1_SECTION_SELECTORS: '{bad' }, /^L1_SECTION_SELECTORS: not a JSON object \(/],
  ];
  for (const [args, env, refusal] of cases)
    expect(
      refusedAtLoad(['node', 'playwright', 'test', ...args], { ...settingsOf(env), env }) ?? '',
      args.join(' ') || Object.keys(env)[0],
    ).toMatch(refusal);
  // Near misses: none of them, `--trace off`, `--timeout 0` and 1000, Playwright's own reporters.
  for (const args of [
    [],
    ['--trace', 'off'],
    ['--timeout', '0'],
    ['--timeout=1000'],
    ['--reporter=dot,junit'],
    ['--add-reporter', 'line'],
  ])
    expect(
      refusedAtLoad(['node', 'playwright', 'test', ...args], { ...settingsOf({}), env: {} }),
      args.join(' '),
    ).toBeUndefined();
  // …and one whole invocation: refused before Playwright empties its folder.
  const night = { status: 'failed', failedTests: ['0123456789ab-cdef0123'] };
  const dir = tempDir('refused-at-load');
  const runs = path.join(dir, 'runs.json');
  fs.writeFileSync(runs, JSON.stringify([UNREACHABLE]));
  const results = path.join(dir, 'test-results');
  fs.mkdirSync(path.join(results, 'compared-values'), { recursive: true });
  fs.writeFileSync(path.join(results, '.last-run.json'), JSON.stringify(night));
  fs.writeFileSync(path.join(results, 'compared-values', 'item-5.json'), '{}');
  const r = spawnSync(PLAYWRIGHT, ['test', '--timeout', '500'], {
    cwd: REPO,
    encoding: 'utf8',
    timeout: 60_000,
    env: checksEnv(dir, { L1_RUNS: runs }),
  });
  const out = `${r.stdout}${r.stderr}`;
  expect(out).toMatch(/--timeout 500 is refused/);
  expect(
    {
      code: r.status,
      record: JSON.parse(fs.readFileSync(path.join(results, '.last-run.json'), 'utf8')) as unknown,
      evidence: fs.readdirSync(path.join(results, 'compared-values')),
      claimed: fs.existsSync(path.join(dir, 'verdicts')),
    },
    out.slice(-1000),
  ).toEqual({ code: 1, record: night, evidence: ['item-5.json'], claimed: false });
});

test("a demo port another process holds (the main one, or the two after it the demo also takes) is refused as the config loads, in demo mode: the night's Playwright folder keeps its record of failed tests (CLI audit and review of 2026-11-28: found as Playwright started the demo, after it had emptied the folder)", async () => {
  const night = { status: 'failed', failedTests: ['0123456789ab-cdef0123'] };
  /** The bundled demo's night on `port` (no runs configured), after a night that failed a test. */
  const demoNight = async (port: number) => {
    const dir = tempDir('demo-port-at-load');
    const results = path.join(dir, 'test-results');
    fs.mkdirSync(results, { recursive: true });
    fs.writeFileSync(path.join(results, '.last-run.json'), JSON.stringify(night));
    // Not spawnSync: a held port is served by this process, which must answer the probe.
    const child = spawn(PLAYWRIGHT, ['test', '--grep', '@item3'], {
      cwd: REPO,
      env: checksEnv(dir, { L1_DEMO_PORT: String(port) }),
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    const record = JSON.parse(fs.readFileSync(path.join(results, '.last-run.json'), 'utf8')) as unknown;
    // Never taken for the demo: no run was collected, nothing claimed (docs/claims.md: the claim of
    // tests/selftest/cli.spec.ts "another process on the demo port …", proven here since 2026-11-28).
    return { code, out, record, verdicts: fs.existsSync(path.join(dir, 'verdicts')) };
  };
  const impostor = http.createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html' }).end('<p>hi</p>'),
  );
  const held = Number(new URL(await listenLocal(impostor)).port);
  // A plain listener on the port after a free one: the demo's Profile B portal.
  const base = await freeTriple(5720);
  const portal = net.createServer();
  await new Promise<void>((resolve) => portal.listen(base + 1, '127.0.0.1', resolve));
  try {
    const [main, second] = [await demoNight(held), await demoNight(base)];
    expect(main.out).toMatch(
      new RegExp(`port ${held} is held by another process, not this checkout's demo .*L1_DEMO_PORT`),
    );
    expect(second.out).toContain(
      `port ${base + 1} (Profile B portal, port + 1) is in use: stop what holds it or set L1_DEMO_PORT`,
    );
    for (const r of [main, second]) {
      expect(r.out).not.toContain('[WebServer]');
      expect({ code: r.code, record: r.record, verdicts: r.verdicts }, r.out.slice(-1000)).toEqual({
        code: 1,
        record: night,
        verdicts: false,
      });
    }
  } finally {
    await closeLocal(impostor);
    await new Promise((resolve) => portal.close(resolve));
  }
});

test("--last-failed with nothing to re-run leaves no invocation folder in the state folder once its runner exits (its scratch folder used to stay until a later invocation swept day-old ones); the night's record is untouched", () => {
  const passed = { status: 'passed', failedTests: [] };
  const { code, out, dir, record } = lastFailedInvocation(passed, ['--pass-with-no-tests']);
  expect(code, out).toBe(0);
  expect(out).toContain('nothing to re-run');
  expect(fs.readdirSync(path.join(dir, 'state', 'invocations'))).toEqual([]);
  expect(JSON.parse(fs.readFileSync(record, 'utf8'))).toEqual(passed);
});

test('near miss: under an invocation id given again (L1_INVOCATION_ID), the folder of the invocation that id named before, an unfinished claim in it, keeps everything but the scratch folder (review of 2026-11-27: the whole folder went)', () => {
  const passed = { status: 'passed', failedTests: [] };
  const { code, out, dir } = lastFailedInvocation(
    passed,
    ['--pass-with-no-tests'],
    (state) => {
      fs.mkdirSync(path.join(state, 'invocations', 'again'), { recursive: true });
      fs.writeFileSync(path.join(state, 'invocations', 'again', 'claimed.json'), '{}');
    },
    { L1_INVOCATION_ID: 'again' },
  );
  expect(code, out).toBe(0);
  expect(fs.readdirSync(path.join(dir, 'state', 'invocations', 'again'))).toEqual(['claimed.json']);
});

test('--last-failed whose record names tests of other runs: after Playwright\'s "No tests found", a line says the record is of other runs and what to run instead', () => {
  const { code, out } = lastFailedInvocation(
    { status: 'failed', failedTests: ['0123456789ab-cdef0123'] },
    [],
  );
  expect(code, out).toBe(1);
  expect(out).toContain('No tests found');
  expect(out).toMatch(
    /--last-failed: none of the 1 failed test\(s\) recorded in \S*\.last-run\.json is a test of this invocation's runs/,
  );
});

test.describe('the handoff to the main job (scripts/main.ts)', () => {
  const night = { verdicts: '/n/verdicts', allureResults: '/n/allure-results', partial: false };
  const other = { verdicts: '/o/verdicts', allureResults: '/o/allure-results', partial: true };
  /** What the main job reads back: the folders. */
  const folders = ({ verdicts, allureResults }: typeof night) => ({ verdicts, allureResults });

  test('two invocations in one state folder hand over in files of their own: neither reads the other', () => {
    const state = tempDir('handoff');
    writeHandoff(state, night, 'job-1', true);
    writeHandoff(state, other, 'job-2', true);
    expect(takeHandoff(state, 'job-2')).toEqual(folders(other));
    expect(takeHandoff(state, 'job-1')).toEqual(folders(night));
    // Read once: a job never takes the same handoff twice, nor one its checks did not write.
    expect(takeHandoff(state, 'job-1')).toBeUndefined();
    expect(takeHandoff(state, 'job-3')).toBeUndefined();
  });

  test('without the Allure reporter the handoff says so (no results folder); a foreign file is not a handoff', () => {
    const state = tempDir('handoff');
    writeHandoff(state, night, 'job-1', false);
    expect(takeHandoff(state, 'job-1')).toEqual({ ...folders(night), allureResults: '' });
    writeHandoff(state, night, 'job-2', true);
    const file = path.join(state, 'handoffs', 'job-2.json');
    fs.writeFileSync(file, JSON.stringify({ id: 'job-9', verdicts: '/x', allureResults: '/y' }));
    expect(takeHandoff(state, 'job-2')).toBeUndefined();
  });
});

test.describe('the main job (scripts/main.ts): its exit code says what happened (README.md § Two commands on a fresh machine)', () => {
  test.describe.configure({ timeout: 90_000 });
  /** The main job with its folders under a fresh temporary folder and `env` over them. */
  const job = (args: string[], env: NodeJS.ProcessEnv) => {
    const dir = tempDir('main-job');
    const r = spawnSync(...tsScript('scripts/main.ts', args), {
      cwd: REPO,
      env: jobEnv(dir, env),
      encoding: 'utf8',
      timeout: 80_000,
    });
    return { code: r.status, out: `${r.stdout}${r.stderr}`, dir };
  };
  /** The job's environment: this one's without L1_*, its folders under `dir`, and `env` over them. */
  function jobEnv(dir: string, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
    const own = childEnv();
    Object.assign(own, {
      L1_STATE_DIR: path.join(dir, 'state'),
      L1_VERDICTS_DIR: path.join(dir, 'verdicts'),
      L1_ALLURE_RESULTS_DIR: path.join(dir, 'allure-results'),
      L1_PARTIAL_DIR: path.join(dir, 'partial'),
      L1_ALLURE_REPORT_DIR: path.join(dir, 'allure-report'),
      L1_ALLURE_HISTORY_PATH: path.join(dir, 'history', 'history.jsonl'),
      L1_TEST_RESULTS_DIR: path.join(dir, 'test-results'),
      FORCE_COLOR: '0',
      ...env,
    });
    return own;
  }

  test('--nights 01 is one night as --nights 1 is: no demo of its own, the bundled runs listed, not the nights scenarios', () => {
    // The job compared the text with '1': `--nights 01` (or 1.0), one night, started the demo in
    // the job and checked the nights' scenarios, whose drift fails item 5 on that night (review 59j).
    const one = job(['--nights', '1', '--list'], { L1_DEMO_PORT: '4397' });
    const padded = job(['--nights', '01', '--list'], { L1_DEMO_PORT: '4397' });
    expect(padded.code, padded.out).toBe(0);
    expect(padded.out).not.toContain('demo scenarios');
    expect(padded.out.match(/Total: \d+ tests?/)?.[0]).toBe(one.out.match(/Total: \d+ tests?/)?.[0]);
  });

  test('--nights outside 1 to 30 stops the job before any demo starts, with its exit line', () => {
    // It was checked after the demo had started and the scenario runs file been written ("demo
    // scenarios …" said), and returned 2 without the job's `Exit code 2: nothing was checked`.
    const r = job(['--nights', '31'], { L1_DEMO_PORT: '4397' });
    expect(r.code, r.out).toBe(2);
    expect(r.out).toContain('usage: --nights N (1 to 30)');
    expect(r.out).toContain('Exit code 2: nothing was checked');
    expect(r.out).not.toContain('demo scenarios');
  });

  test("--help shows the job's own options before playwright test's, and no check runs", () => {
    // It showed Playwright's help alone: --scenarios, --scenario and --nights were nowhere in it.
    const r = job(['--help'], {});
    expect(r.code, r.out).toBe(0);
    for (const option of ['--scenarios', '--scenario NAME', '--nights N'])
      expect(r.out.split('Usage: npx playwright test')[0]).toContain(option);
    expect(r.out).toContain('Usage: npx playwright test');
    expect(r.out).toContain('Exit code 0: no check ran');
  });

  test('--scenarios lists the names --scenario takes, and only those', () => {
    // It printed demo/runs-file.ts --list, whose last line, `model`, is an option of that script
    // (--model N): `npm run demo -- --scenario model` answered "unknown scenario" (review 59a).
    const r = job(['--scenarios'], {});
    expect(r.code, r.out).toBe(0);
    const names = r.out
      .split('\n')
      .map((line) => /^(\S+) {2,}\S/.exec(line)?.[1])
      .filter((name) => name !== undefined);
    expect(names).toEqual(SCENARIO_ENTRIES.map((e) => e.name));
    expect(names.filter((name) => typeof selectScenarios(name) === 'string')).toEqual([]);
  });

  /**
   * The main job over one unreachable run, sent `stops` SIGTERMs to its whole process group (as
   * `timeout` sends them) once its report step has begun; its exit code and output.
   */
  async function jobStoppedInItsReport(
    stops: number,
  ): Promise<{ code: number | null; out: string; dir: string }> {
    const dir = tempDir('main-job');
    const runs = path.join(dir, 'runs.json');
    fs.writeFileSync(runs, JSON.stringify([UNREACHABLE]));
    const child = spawn(...tsScript('scripts/main.ts'), {
      cwd: REPO,
      env: jobEnv(dir, { L1_RUNS: runs }),
      detached: true,
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    // The report step begins when its process is there (the checks ended before it).
    let report: number | undefined;
    await expect
      .poll(
        () => (report = processesUnder(child.pid!).find((p) => p.cmd.includes('scripts/report.ts'))?.pid),
        {
          timeout: 60_000,
        },
      )
      .toBeDefined();
    // Held in its step until the stops are sent: on a fast machine the report and the guard ended
    // within the second between them, and the second stop found no job (kill ESRCH). A SIGTERM
    // sent to the held step waits for SIGCONT.
    if (stops > 1) process.kill(report!, 'SIGSTOP');
    for (let k = 0; k < stops; k++) {
      process.kill(-child.pid!, 'SIGTERM');
      // The job takes a stop within a second of the one before for the same stop, passed on.
      await new Promise((resolve) => setTimeout(resolve, 1200));
    }
    if (stops > 1) process.kill(report!, 'SIGCONT');
    return { code: await closed, out, dir };
  }

  test('a stop sent to the whole process group while the report is built (`timeout`, Ctrl-C) leaves the report and the guard to finish: 2, never 3', async () => {
    const { code, out, dir } = await jobStoppedInItsReport(1);
    expect(code, out).toBe(2);
    expect(out).toContain('stopped by SIGTERM');
    expect(out).toContain('redaction guard:');
    expect(out).toContain(`Allure report: ${shownPath(path.join(dir, 'allure-report', 'index.html'))}`);
    expect(fs.existsSync(path.join(dir, 'allure-report', 'index.html'))).toBe(true);
  });

  test('a second stop (a second later) while the report or the guard runs stops it too: 3', async () => {
    const { code, out } = await jobStoppedInItsReport(2);
    expect(code, out).toBe(3);
    expect(out).toContain('stopped by SIGTERM');
  });

  test('a SIGTERM sent to the job alone (`kill PID`, `docker stop`) is passed on as SIGTERM: the verdicts name it, not a Ctrl-C', async () => {
    // A platform that takes the login and never answers: the run is collecting when the stop comes.
    const server = http.createServer(() => {});
    const origin = await listenLocal(server);
    try {
      const dir = tempDir('main-job');
      const runs = path.join(dir, 'runs.json');
      fs.writeFileSync(
        runs,
        JSON.stringify([
          {
            label: 'hangs',
            htmlUrl: `${origin}/reports/101101/monitor/2025-11-17?companyId=1001&topic=T`,
            platformUrl: `${origin}/platform/overview?projectId=101101`,
          },
        ]),
      );
      const credentials = path.join(dir, 'credentials.json');
      fs.writeFileSync(
        credentials,
        JSON.stringify({ companies: { '1001': { phone: 'p', password: 'q' } } }),
        {
          mode: 0o600,
        },
      );
      const child = spawn(...tsScript('scripts/main.ts', ['--reporter=dot']), {
        cwd: REPO,
        env: jobEnv(dir, { L1_RUNS: runs, L1_CREDENTIALS_FILE: credentials }),
        detached: true,
      });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
      let asked = 0;
      server.on('request', () => asked++);
      await expect.poll(() => asked, { timeout: 60_000 }).toBeGreaterThan(0);
      process.kill(child.pid!, 'SIGTERM');
      const code = await closed;
      expect(code, out).toBe(2);
      expect(out).toContain('stopped by SIGTERM');
      const verdict = JSON.parse(fs.readFileSync(path.join(dir, 'verdicts', 'hangs.json'), 'utf8')) as {
        status: string;
        failureKind: string;
        reason: string;
      };
      expect(verdict, out).toMatchObject({ status: 'error', failureKind: 'interrupted' });
      expect(verdict.reason).toMatch(/^the invocation was interrupted by SIGTERM while its collection ran/);
    } finally {
      await closeLocal(server);
    }
  });

  test('with a reporter that writes its report to stdout (--reporter=json), stdout holds that report alone: the job, its report step and its guard write to stderr (CLI audit)', () => {
    const runs = path.join(tempDir('main-job'), 'runs.json');
    fs.writeFileSync(runs, JSON.stringify([UNREACHABLE]));
    const dir = tempDir('main-job');
    const r = spawnSync(...tsScript('scripts/main.ts', ['--reporter=json']), {
      cwd: REPO,
      env: jobEnv(dir, { L1_RUNS: runs }),
      encoding: 'utf8',
      timeout: 80_000,
    });
    expect(r.status, r.stderr).toBe(2);
    expect(() => JSON.parse(r.stdout) as unknown, r.stdout.slice(-500)).not.toThrow();
    expect(r.stderr).toContain('redaction guard:');
    expect(r.stderr).toContain('Exit code 2');
  });

  test('settings it cannot read are 2, nothing was checked (never 3, which says a report or the guard failed)', () => {
    const r = job([], { L1_RUNS: path.join(tempDir('main-job'), 'absent.json') });
    expect(r.code, r.out).toBe(2);
    expect(r.out).toContain('absent.json cannot be read');
    expect(r.out).toContain('Exit code 2: nothing was checked');
  });

  test('a --grep that matches no test builds no report: 2, nothing was checked; 0 with --pass-with-no-tests', () => {
    const runs = path.join(tempDir('main-job'), 'runs.json');
    fs.writeFileSync(runs, JSON.stringify([UNREACHABLE]));
    const none = job(['--grep', 'item05'], { L1_RUNS: runs });
    expect(none.code, none.out).toBe(2);
    expect(none.out).toContain('Allure report: not built: no test ran');
    expect(none.out).toContain('Exit code 2: nothing was checked');
    // Through --scenario: the demo's runs file of a scenario whose URL carries a token on purpose is
    // an input, kept with the demo's state, and the job's guard passes. Written to reports/, the
    // guard found the token there and the job ended with 3.
    const passing = job(
      ['--scenario', 'hostile-redirect-loop-token', '--grep', 'item05', '--pass-with-no-tests'],
      {
        L1_DEMO_PORT: '4397',
      },
    );
    expect(passing.code, passing.out).toBe(0);
    expect(passing.out).toContain(
      `demo scenarios hostile-redirect-loop-token: ${shownPath(SCENARIO_RUNS_FILE)}`,
    );
    expect(passing.out).toMatch(/redaction guard: \d+ files scanned, no secret found/);
    expect(passing.out).toContain('Exit code 0: no check ran');
  });

  test("--scenario with the demo's port held by another process, or a scenario that does not exist: nothing was checked, 2 (never 3, which says a report or the guard failed), and the message sends the user to the job's own options", async () => {
    const server = http.createServer(() => {});
    const held = Number(new URL(await listenLocal(server)).port);
    try {
      const busy = job(['--scenario', 'A-monitor'], { L1_DEMO_PORT: String(held) });
      expect(busy.code, busy.out).toBe(2);
      expect(busy.out).toContain(`port ${held} is in use by another process`);
      expect(busy.out).toContain('Exit code 2: nothing was checked');
    } finally {
      await closeLocal(server);
    }
    const unknown = job(['--scenario', 'no-such-scenario'], { L1_DEMO_PORT: String(await freeTriple(5520)) });
    expect(unknown.code, unknown.out).toBe(2);
    expect(unknown.out).toMatch(
      /unknown scenario "no-such-scenario" \(the \d+ names: npm run demo -- --scenarios\)/,
    );
    // Not the usage of the script the job runs inside (its --origin and --out are no options of the job).
    expect(unknown.out).not.toContain('--origin');
    expect(unknown.out).toContain('Exit code 2: nothing was checked');
  });
});
