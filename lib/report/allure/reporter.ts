import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import AllureReporter from 'allure-playwright';
import type { Globals, TestResult, TestResultContainer } from 'allure-js-commons';
import type { Category } from 'allure-js-commons/sdk';
import { FileSystemWriter } from 'allure-js-commons/sdk/reporter';
import type { Suite } from '@playwright/test/reporter';
import { markAllureWrite } from './write-guard';

/**
 * allure-playwright as the configured reporter (playwright.config.ts), writing its results as
 * allure-js-commons' `FileSystemWriter` does (a temporary file `.allure-write-<uuid>.tmp` beside
 * each, renamed over it) without the `fsync` of each file before its rename. The runner writes
 * every result, container and attachment on its main thread, between the workers' messages: on
 * these machines an `fsync` is 2.8 ms where the write is 0.15, and the runner of 100 light runs
 * spent 6.3 s of its 25 s in them (docs/speed-log.md). The rename keeps each file whole for a
 * reader, and a killed runner (SIGKILL, a CI timeout) loses nothing: what it wrote is in the
 * kernel's cache. Only a crash of the machine itself can lose the last files, and a night's
 * results are not worth keeping through one (the night is run again).
 */

/** One file written whole under its name: `writeTemp` writes a temporary file beside it, then it is renamed. */
function publish(file: string, writeTemp: (temp: string) => void): void {
  const temp = path.join(path.dirname(file), `.allure-write-${crypto.randomUUID()}.tmp`);
  try {
    writeTemp(temp);
    fs.renameSync(temp, file);
  } catch (e) {
    fs.rmSync(temp, { force: true });
    // Known to the runner's guard as an Allure write (lib/report/allure/write-guard.ts).
    throw markAllureWrite(e);
  }
}

/**
 * allure-js-commons' `FileSystemWriter`, each file published without its `fsync`; its
 * `environment.properties` (one a night) as the library writes it.
 */
export class UnsyncedWriter extends FileSystemWriter {
  private readonly dir: string;

  constructor(config: { resultsDir: string }) {
    super(config);
    this.dir = config.resultsDir;
  }

  override writeAttachment(distFileName: string, content: Buffer): void {
    publish(this.pathOf(distFileName), (temp) => fs.writeFileSync(temp, content));
  }

  override writeAttachmentFromPath(distFileName: string, from: string): void {
    publish(this.pathOf(distFileName), (temp) => fs.copyFileSync(from, temp));
  }

  override writeCategoriesDefinitions(categories: Category[]): void {
    this.json('categories.json', categories);
  }

  override writeGroup(result: TestResultContainer): void {
    this.json(`${result.uuid}-container.json`, result);
  }

  override writeResult(result: TestResult): void {
    this.json(`${result.uuid}-result.json`, result);
  }

  override writeGlobals(distFileName: string, info: Globals): void {
    this.json(distFileName, info);
  }

  /** As the library's: the results folder made if it is not there. */
  private pathOf(name: string): string {
    try {
      fs.mkdirSync(this.dir, { recursive: true });
    } catch (e) {
      throw markAllureWrite(e);
    }
    return path.join(this.dir, name);
  }

  private json(name: string, value: unknown): void {
    publish(this.pathOf(name), (temp) => fs.writeFileSync(temp, JSON.stringify(value), 'utf8'));
  }
}

/** What of allure-playwright's private runtime this reporter replaces: its writer. */
interface WithRuntime {
  allureRuntime?: { writer: unknown };
}

export default class L1AllureReporter extends AllureReporter {
  override onBegin(suite: Suite): void {
    super.onBegin(suite);
    const runtime = (this as unknown as WithRuntime).allureRuntime;
    // allure-playwright 3.12 makes its writer here; another version that does not is refused
    // loudly, never run with a writer of its own choosing in silence (tests/unit/allure-writer.spec.ts).
    if (!runtime || !(runtime.writer instanceof FileSystemWriter))
      throw new Error(
        'lib/report/allure/reporter.ts: allure-playwright has no FileSystemWriter at allureRuntime.writer after onBegin (its version changed): see the note there',
      );
    runtime.writer = new UnsyncedWriter({ resultsDir: this.options.resultsDir ?? './allure-results' });
  }
}
