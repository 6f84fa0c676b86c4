import fs from 'node:fs';
import path from 'node:path';
import { ITEM_NUMBERS } from '../rules/types';
import type { Settings } from '../run/settings';
import { parseJson } from '../util/json';

/**
 * Where each item's section is on the report page, for the screenshot its Allure entry shows
 * (README.md § Reading the Allure report: "a picture where a picture is faster"). The defaults fit the bundled demo report;
 * `L1_SECTION_SELECTORS` (a JSON object `{"5": "#ranking", …}` or the path of a JSON file holding
 * one) overrides any of them; an empty string turns an item's screenshot off. Which items get one
 * (fixtures/collector.ts): those whose rule fails by default, every item with `L1_SCREENSHOTS=all`,
 * none with `L1_SCREENSHOTS=0`.
 */
export const DEFAULT_SECTIONS: Record<number, string> = {
  3: 'section.card:has(#kpis)',
  4: 'section.card:has(#platform-kpis)',
  5: 'section.card:has(#ranking)',
  6: 'section.card:has(#words)',
  7: '#content-type',
  8: '#publish-time',
  9: '#media-category',
  10: '#media-name',
  11: '#sources',
  12: '#sources',
};

/**
 * The sections of the settings (L1_SCREENSHOTS and L1_SECTION_SELECTORS as readSettings parsed
 * them: the command line over `.env`, trimmed, blank unset). The selectors' JSON (inline or a file)
 * is read here, beside its defaults, and checked once as the config loads (`sectionSelectorsProblem`,
 * tests/setup/cli.ts `refusedAtLoad`), which stops the invocation on a malformed value as the settings stop on theirs.
 */
export function sectionSelectors(
  settings: Pick<Settings, 'screenshots' | 'values' | 'root'>,
): Record<number, string> {
  if (settings.screenshots === 'none') return {};
  const raw = settings.values.L1_SECTION_SELECTORS;
  if (!raw) return { ...DEFAULT_SECTIONS };
  let text = raw;
  if (!raw.startsWith('{')) {
    const file = path.resolve(settings.root, raw);
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (e) {
      throw new Error(
        `L1_SECTION_SELECTORS: neither a JSON object nor a file that can be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}: ${file})`,
        { cause: e },
      );
    }
  }
  let parsed: unknown;
  try {
    parsed = parseJson(text);
  } catch (e) {
    throw new Error(`L1_SECTION_SELECTORS: not a JSON object (${(e as Error).message})`, { cause: e });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new Error('L1_SECTION_SELECTORS: expected a JSON object {"<item>": "<CSS selector>"}');
  const out: Record<number, string> = { ...DEFAULT_SECTIONS };
  for (const [key, value] of Object.entries(parsed)) {
    const item = Number(key);
    if (!ITEM_NUMBERS.includes(item as never) || typeof value !== 'string')
      throw new Error(`L1_SECTION_SELECTORS.${key}: expected an item 3..12 and a CSS selector string`);
    if (value) out[item] = value;
    else delete out[item];
  }
  return out;
}

/**
 * What is wrong with L1_SECTION_SELECTORS, or undefined: global setup stops the invocation on it,
 * naming the variable, before any run is collected (each run's pictures would fail on it alone).
 * Read also with L1_SCREENSHOTS=0, as every setting is read whether used or not.
 */
export function sectionSelectorsProblem(
  settings: Pick<Settings, 'screenshots' | 'values' | 'root'>,
): string | undefined {
  try {
    sectionSelectors({ ...settings, screenshots: 'all' });
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

/** The picture of an item's section in the run's folder of the invocation. */
export function shotFile(runDir: string, item: number): string {
  return path.join(runDir, 'shots', `item${item}.jpeg`);
}
