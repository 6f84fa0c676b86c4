import type { Browser } from 'playwright-core';
import { collectRun, type CollectDeps } from '../../lib/platform/collect';
import type { Evidence } from '../../lib/platform/evidence';
import { fetchGetter } from '../../lib/platform/http';
import { DEFAULT_TIME_ZONE } from '../../lib/run/night';
import type { ConfiguredRun } from '../../lib/run/runs';
import type { Settings } from '../../lib/run/settings';
import { ReportPage } from '../../pages/ReportPage';

/**
 * The benchmark's bare collection of one run (docs/decisions.md, Speed), shared by the floor
 * (scripts/bench/floor.ts) and the Playwright floor (scripts/bench/pw-floor/): the suite's own
 * `collectRun` with a trivial deps object. Each report page in a fresh context of one browser,
 * Node's fetch for the endpoints, the same retries of a 5xx and the same schema validation as
 * the suite; no evidence files, no rules, no records, no pictures.
 */
export const BARE_TIMEOUT_MS = 30_000;

export function bareCollect(
  run: ConfiguredRun,
  options: {
    root: string;
    profileB: Settings['profileB'];
    session: CollectDeps['session'];
    browser: () => Promise<Browser>;
    /** Called after each page load with its wall time. */
    onPage?: (ms: number) => void;
  },
): Promise<Evidence> {
  return collectRun(run, {
    root: options.root,
    profileB: options.profileB,
    timeoutMs: BARE_TIMEOUT_MS,
    retries: 2,
    backoffMs: 300,
    // The bench's runs are the demo's, whose days are Asia/Shanghai's (demo/dates.ts).
    timeZone: DEFAULT_TIME_ZONE,
    session: options.session,
    readPage: async (htmlUrl, storageState) => {
      const started = Date.now();
      const context = await (await options.browser()).newContext({ storageState });
      try {
        const read = await new ReportPage(await context.newPage()).readData(htmlUrl, {
          timeoutMs: BARE_TIMEOUT_MS,
          maxBytes: 64 * 1024 * 1024,
        });
        return { ...read, notes: [] };
      } finally {
        await context.close();
        options.onPage?.(Date.now() - started);
      }
    },
    newApiContext: async (statePath) => fetchGetter(statePath),
  });
}
