// Allure Report 3 configuration, read by `npm run report` (scripts/report.mjs), which builds one
// self-contained HTML file, removes every call to an external host from it and checks that none
// is left. Keys: node_modules/@allurereport/plugin-api/dist/config.d.ts (Allure 3.18).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(fileURLToPath(import.meta.url));

// The failure messages of the item tests (fixtures/item.ts), as the categories match them.
// Playwright may put `Error: ` in front of a thrown error's message.
const lead = String.raw`^(?:[A-Za-z]*Error: )?`;
const notChecked = (kind) =>
  new RegExp(`${lead}run .+ not checked \\(${kind === 'needs-input' ? 'needs-input' : `error, ${kind}`}\\)`);
const failed = ['failed', 'broken'];

/**
 * README.md § Reading the Allure report: a platform 403 and a data mismatch must not look the same. First match wins. Each
 * category matches the fixture's label `l1_failure` (values-differ | input | platform |
 * needs-input) or, as a fallback, the message's leading words.
 */
export const categories = [
  {
    id: 'values-differ',
    name: 'values differ',
    matchers: [
      { statuses: failed, labels: { l1_failure: '^values-differ$' } },
      { statuses: failed, message: new RegExp(`${lead}run .+ · item \\d+ · step .*: \\d+ mismatch`) },
    ],
    // one group per run, not one per message (every message is different)
    groupBy: [{ label: 'epic' }],
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
    name: 'needs input (spec 8.1.1)',
    matchers: [
      { statuses: failed, labels: { l1_failure: '^needs-input$' } },
      { statuses: failed, message: notChecked('needs-input') },
    ],
    groupByMessage: true,
    expand: true,
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
  // report, kept by scripts/report.mjs (gitignored). 60 nights are enough for a trend.
  historyPath: process.env.L1_ALLURE_HISTORY_PATH
    ? path.resolve(root, process.env.L1_ALLURE_HISTORY_PATH)
    : path.join(root, 'allure-history', 'history.jsonl'),
  historyLimit: 60,
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
