// Allure Report 3 configuration, read by `npm run report` (scripts/report.ts), which builds one
// self-contained HTML file, removes every call to an external host from it and checks that none
// is left. Keys: node_modules/@allurereport/plugin-api/dist/config.d.ts (Allure 3.18).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(fileURLToPath(import.meta.url));

// The failure messages of the tests (fixtures/check.ts), as the categories match them.
// Playwright puts the error name (`ValuesDiffer: `, `RunNotChecked: `) in front of the message.
const lead = String.raw`^(?:[A-Za-z]+: )?`;
const notChecked = (kind) =>
  new RegExp(`${lead}run .+ not checked \\(${kind === 'needs-input' ? 'needs-input' : `error, ${kind}`}\\)`);
const failed = ['failed', 'broken'];

/**
 * README.md § Reading the Allure report: a platform 403 and a data mismatch must not look the same. First match wins. Each
 * category matches the label `l1_failure` (values-differ, input, platform, needs-input,
 * configuration, interrupted) or, as a fallback, the message's leading words.
 */
export const categories = [
  {
    id: 'values-differ',
    name: 'values differ',
    matchers: [
      { statuses: failed, labels: { l1_failure: '^values-differ$' } },
      {
        statuses: failed,
        message: new RegExp(`${lead}run .+ · item \\d+ · .*: \\d+ of \\d+ step\\(s\\) differ`),
      },
    ],
    // one group per run, not one per message (every message is different); the label `run` (the
    // epic, lib/report/allure/results.ts): Allure heads a group with the label's name, `run: X`
    groupBy: [{ label: 'run' }],
    groupByMessage: false,
    expand: true,
  },
  {
    id: 'not-checked-input',
    name: 'run not checked: input',
    matchers: [
      { statuses: failed, labels: { l1_failure: '^input$' } },
      { statuses: failed, message: notChecked('input') },
    ],
    // one group per reason: the ten items of a run share it
    groupByMessage: true,
    expand: true,
  },
  {
    id: 'not-checked-platform',
    name: 'run not checked: platform',
    matchers: [
      { statuses: failed, labels: { l1_failure: '^platform$' } },
      { statuses: failed, message: notChecked('platform') },
    ],
    groupByMessage: true,
    expand: true,
  },
  {
    id: 'needs-input',
    name: 'needs input (spec 9.1.2 / 8.1.1)',
    matchers: [
      { statuses: failed, labels: { l1_failure: '^needs-input$' } },
      { statuses: failed, message: notChecked('needs-input') },
    ],
    groupByMessage: true,
    expand: true,
  },
  {
    id: 'not-checked-configuration',
    name: 'run not checked: configuration of the suite',
    matchers: [
      { statuses: failed, labels: { l1_failure: '^configuration$' } },
      { statuses: failed, message: notChecked('configuration') },
    ],
    groupByMessage: true,
    expand: true,
  },
  {
    id: 'interrupted',
    name: 'run interrupted (the night was stopped)',
    matchers: [
      { statuses: failed, labels: { l1_failure: '^interrupted$' } },
      { statuses: failed, message: notChecked('interrupted') },
    ],
    groupByMessage: true,
  },
  {
    id: 'suite-problem',
    name: 'suite or environment problem (timeout, crash, anything else)',
    matchers: { statuses: failed },
    groupByMessage: true,
  },
];

export default {
  name: 'L1 report checks',
  output: path.join(root, 'allure-report'),
  // Trends and per-test history from one invocation to the next (docs/decisions.md): one JSON line per
  // report, kept by scripts/report.ts (gitignored). 60 nights are enough for a trend; the report
  // step keeps fewer when they do not fit L1_ALLURE_HISTORY_MB, each line cut to what it reads.
  historyPath: process.env.L1_ALLURE_HISTORY_PATH
    ? path.resolve(root, process.env.L1_ALLURE_HISTORY_PATH)
    : path.join(root, 'allure-history', 'history.jsonl'),
  historyLimit: 60,
  // scripts/report.ts adds a point only for a complete night not in the history yet, where no run
  // was interrupted.
  appendHistory: process.env.L1_ALLURE_APPEND_HISTORY !== '0',
  // The night at a glance, at the top of the overview: runs checked, failing, not checked.
  variables: JSON.parse(process.env.L1_ALLURE_VARIABLES || '{}'),
  categories,
  plugins: {
    awesome: {
      options: {
        singleFile: true,
        reportName: 'L1 report checks',
        reportLanguage: 'en',
        // run (epic) → item (feature: `item 03 · …`, zero-padded so 3 … 12 sort in order)
        groupBy: ['epic', 'feature'],
        defaultSortBy: 'name,asc',
        // the mismatch steps open without a click
        stepTreeExpansion: 'failed',
      },
    },
  },
};
