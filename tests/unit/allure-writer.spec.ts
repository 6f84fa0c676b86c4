import fs from 'node:fs';
import path from 'node:path';
import { FileSystemWriter } from 'allure-js-commons/sdk/reporter';
import type { Suite } from '@playwright/test/reporter';
import { expect, test } from './test-type';
import L1AllureReporter, { UnsyncedWriter } from '../../lib/report/allure/reporter';
import { allureWriteGuard, isAllureWriteError } from '../../lib/report/allure/write-guard';
import { ALLURE_WRITER_TEMP } from '../../lib/report/outputs';
import { tempDir } from './fakes/temp';

/**
 * lib/report/allure/reporter.ts: allure-playwright as the configured reporter, its results written
 * as allure-js-commons' own writer writes them, without an fsync of each file on the runner's
 * main thread (docs/decisions.md, Speed).
 */

type Writer = InstanceType<typeof FileSystemWriter>;

/** Every kind of write allure-playwright makes, into `writer`. */
function writeEveryKind(writer: Writer, source: string): void {
  writer.writeResult({ uuid: 'r1', name: 'item 5', status: 'passed' } as never);
  writer.writeGroup({ uuid: 'c1', children: ['r1'] } as never);
  writer.writeAttachment('a1-attachment.json', Buffer.from('{"html": "12.5%"}'));
  writer.writeAttachmentFromPath('a2-attachment.png', source);
  writer.writeCategoriesDefinitions([{ name: 'values differ' }]);
  writer.writeGlobals('g1-globals.json', { attachments: [], errors: [] } as never);
  writer.writeEnvironmentInfo({ run: 'A-monitor' });
}

/** The files of a folder with their bytes, by name. */
function filesOf(dir: string): Record<string, string> {
  return Object.fromEntries(
    fs
      .readdirSync(dir)
      .sort()
      .map((name) => [name, fs.readFileSync(path.join(dir, name)).toString('base64')]),
  );
}

/** How many times `fs.fsyncSync` is called while `body` runs. */
function fsyncsDuring(body: () => void): number {
  const real = fs.fsyncSync;
  let calls = 0;
  (fs as { fsyncSync: unknown }).fsyncSync = (fd: number) => {
    calls += 1;
    real(fd);
  };
  try {
    body();
  } finally {
    (fs as { fsyncSync: unknown }).fsyncSync = real;
  }
  return calls;
}

test("the suite's Allure writer writes every file allure-js-commons' own writes, with the same names and bytes and no temporary file left, without an fsync of each", () => {
  const source = path.join(tempDir('allure-writer-src'), 'picture.png');
  fs.writeFileSync(source, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]));
  const theirs = path.join(tempDir('allure-writer-theirs'), 'results');
  const ours = path.join(tempDir('allure-writer-ours'), 'results');
  const theirSyncs = fsyncsDuring(() => writeEveryKind(new FileSystemWriter({ resultsDir: theirs }), source));
  const ourSyncs = fsyncsDuring(() => writeEveryKind(new UnsyncedWriter({ resultsDir: ours }), source));
  expect(filesOf(ours)).toEqual(filesOf(theirs));
  expect(Object.keys(filesOf(ours))).toEqual([
    'a1-attachment.json',
    'a2-attachment.png',
    'c1-container.json',
    'categories.json',
    'environment.properties',
    'g1-globals.json',
    'r1-result.json',
  ]);
  // The library syncs each of its seven files; the suite's writer only the one a night it leaves
  // to the library (environment.properties).
  expect(theirSyncs).toBe(7);
  expect(ourSyncs).toBe(1);
});

test("a write the suite's Allure writer cannot make leaves no temporary file and is an Allure write for the runner's guard (said, recorded, the night goes on), as the library's own is", () => {
  const dir = tempDir('allure-writer-full');
  const results = path.join(dir, 'results');
  fs.mkdirSync(results);
  // A folder where the file should go: its rename fails (EISDIR), after the temporary file was written.
  fs.mkdirSync(path.join(results, 'r1-result.json'));
  let failed: unknown;
  try {
    new UnsyncedWriter({ resultsDir: results }).writeResult({ uuid: 'r1' } as never);
  } catch (e) {
    failed = e;
  }
  expect((failed as NodeJS.ErrnoException | undefined)?.code).toBe('EISDIR');
  expect(fs.readdirSync(results).filter((n) => ALLURE_WRITER_TEMP.test(n))).toEqual([]);
  expect(isAllureWriteError(failed)).toBe(true);
  // The results folder under a file: its making fails, before any temporary file.
  fs.writeFileSync(path.join(dir, 'a-file'), '');
  let unmade: unknown;
  try {
    new UnsyncedWriter({ resultsDir: path.join(dir, 'a-file', 'results') }).writeAttachment(
      'x',
      Buffer.from('x'),
    );
  } catch (e) {
    unmade = e;
  }
  expect(isAllureWriteError(unmade)).toBe(true);
  const lines: string[] = [];
  allureWriteGuard(results, 'writer-night', (line) => lines.push(line))(failed);
  expect(lines).toHaveLength(1);
  expect(fs.existsSync(path.join(results, 'l1-incomplete-writer-night.json'))).toBe(true);
  // Near miss: the same error unmarked, from the suite's own code, is not one.
  expect(isAllureWriteError(Object.assign(new Error('EISDIR'), { code: 'EISDIR' }))).toBe(false);
});

test("the configured reporter is allure-playwright with the suite's writer in place of the library's, writing to the results folder of its options", () => {
  const config = fs.readFileSync(path.resolve(__dirname, '../../playwright.config.ts'), 'utf8');
  expect(config).toContain("'./lib/report/allure/reporter.ts',");
  expect(config).not.toContain("'allure-playwright',");
  const results = path.join(tempDir('allure-writer-reporter'), 'results');
  const reporter = new L1AllureReporter({ resultsDir: results, detail: false, suiteTitle: false });
  reporter.onBegin({ allTests: () => [], suites: [], entries: () => [] } as unknown as Suite);
  const writer = (reporter as unknown as { allureRuntime: { writer: unknown } }).allureRuntime.writer;
  expect(writer).toBeInstanceOf(UnsyncedWriter);
  (writer as Writer).writeResult({ uuid: 'r9' } as never);
  expect(fs.readdirSync(results)).toEqual(['r9-result.json']);
});
