import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { RunInfo } from '../../platform/evidence';
import { itemFeature, itemTestTitle, ITEMS } from '../../rules/items';
import type { ItemNumber } from '../../rules/types';

/**
 * The tests of a run as Allure knows them: their titles (tests/checks.spec.ts declares them),
 * features, parameters (fixtures/check.ts sends them) and ids (allure-playwright makes them). The
 * checks and the report both take them from here, so a result the report makes for a test that
 * never ran (a run the night's stop cut short) has the ids a real one has, and its history joins.
 */

/** The title of a run's first test, which collects the run. */
export const COLLECTION_TITLE = 'collection · report page and endpoints, once';
/** Its Allure feature: `item 00`, so that it sorts before items 3 … 12. */
export const COLLECTION_FEATURE = 'item 00 · collection (page and endpoints, once)';

export interface RunTest {
  test: 'collection' | ItemNumber;
  /** The Playwright test's title. */
  title: string;
  /** Its name in Allure: the title, or an item's feature (its display name, fixtures/check.ts). */
  name: string;
  feature: string;
  /** Its tags, without `@`, as allure-playwright labels them. */
  tags: string[];
}

/** The eleven tests of a run, in their declared order. */
export function runTests(): RunTest[] {
  return [
    {
      test: 'collection',
      title: COLLECTION_TITLE,
      name: COLLECTION_TITLE,
      feature: COLLECTION_FEATURE,
      tags: ['collect'],
    },
    ...ITEMS.map((spec) => ({
      test: spec.item,
      title: itemTestTitle(spec),
      name: itemFeature(spec.item),
      feature: itemFeature(spec.item),
      tags: spec.tags.map((t) => t.slice(1)),
    })),
  ];
}

export interface AllureParameter {
  name: string;
  value: string;
  excluded?: boolean;
}

/** A run's facts as the parameters of each of its tests. */
export function runParameters(
  info: Pick<RunInfo, 'companyId' | 'projectId' | 'reportType' | 'batchDate' | 'profile'>,
): AllureParameter[] {
  return [
    { name: 'company', value: String(info.companyId ?? '-') },
    { name: 'project', value: info.projectId ?? '-' },
    { name: 'report type', value: info.reportType ?? '-' },
    // The batch date changes every night: shown, but not part of the history id, so "item 5 has
    // failed since Tuesday" joins nights (README.md § Run it nightly in CI).
    { name: 'batch date', value: info.batchDate ?? '-', excluded: true },
    { name: 'profile', value: info.profile },
  ];
}

/** The file that declares the tests, as allure-playwright names it: relative to the test folder. */
export const TEST_FILE = 'checks.spec.ts';

let project: string | undefined;

/** The project's name (package.json), which allure-playwright puts before a test case id. */
function projectName(): string {
  project ??= (
    JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8')) as { name: string }
  ).name;
  return project;
}

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

export interface TestIds {
  fullName: string;
  testCaseId: string;
  historyId: string;
  /** The `_fallbackTestCaseId` label. */
  fallbackTestCaseId: string;
  titlePath: string[];
}

/**
 * A test's ids as allure-playwright 3.12 makes them (`getStaticTestMetadata`, and
 * allure-js-commons' `getTestResultHistoryId`): the full name is the file, the run's group and the
 * title; the test case id hashes the project, the file, the group and the title; the history id
 * adds a hash of the parameters not excluded, sorted. `describe` is the run's group title
 * (fixtures/check.ts `runTitleOf`).
 */
export function testIds(describe: string, title: string, parameters: readonly AllureParameter[]): TestIds {
  const base = `${TEST_FILE}#${describe} ${title}`;
  const testCaseId = md5(`${projectName()}:${base}`);
  const hashed = parameters
    .filter((p) => !p.excluded)
    .sort((a, b) => a.name.localeCompare(b.name) || a.value.localeCompare(b.value))
    .map((p) => `${p.name}:${p.value}`)
    .join(',');
  return {
    fullName: [TEST_FILE, describe, title].join(' › '),
    testCaseId,
    historyId: `${testCaseId}:${md5(hashed)}`,
    fallbackTestCaseId: md5(base),
    titlePath: [projectName(), TEST_FILE, describe],
  };
}
