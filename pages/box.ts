import type { BrowserContext } from '@playwright/test';

/**
 * The report page in a box (README.md § Security and limits): the page may reach its own origin,
 * the origins credentials may go to and `L1_PAGE_ORIGINS`; every other request (a tracker, a
 * foreign host it would send the session's data to, another port of its host) is aborted and
 * named in the run's notes, so a user can allow a CDN. Service workers are blocked and downloads
 * refused when the context is made (`contextOptions`).
 */
export const BOXED_CONTEXT = { acceptDownloads: false, serviceWorkers: 'block' } as const;

export interface Box {
  /** Origins the page asked for and was refused, with how many requests each. */
  blocked(): Map<string, number>;
}

const PASS = /^(?:data|blob|about|chrome-extension):/;

export async function boxContext(context: BrowserContext, allowed: readonly string[]): Promise<Box> {
  const origins = new Set(allowed);
  const blocked = new Map<string, number>();
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    let origin: string;
    try {
      origin = PASS.test(url) ? '' : new URL(url).origin;
    } catch {
      origin = 'null';
    }
    if (origin === '' || origins.has(origin)) return route.continue();
    blocked.set(origin, (blocked.get(origin) ?? 0) + 1);
    return route.abort('blockedbyclient');
  });
  return { blocked: () => blocked };
}

/** The run's note about what the box refused, if anything. */
export function blockedNote(blocked: Map<string, number>): string | undefined {
  if (blocked.size === 0) return undefined;
  const list = [...blocked]
    .slice(0, 5)
    .map(([origin, n]) => `${origin} (${n})`)
    .join(', ');
  const more = blocked.size > 5 ? ` and ${blocked.size - 5} more` : '';
  return `the report page asked for origins it may not reach, blocked: ${list}${more}; L1_PAGE_ORIGINS allows one (e.g. a CDN)`;
}
