import { AI_PLATFORM_COUNT } from '../schema/data';
import type { Data, PlatformMeta } from '../schema/data';

/** The number of AI answer platforms items 4 (spec 7.2), 5 (7.6) and 7-12 cover: the schema's (DATA validates their blocks). */
export { AI_PLATFORM_COUNT } from '../schema/data';

/** Spec 4.2: the aggregate platform option (`all`). */
export const AGGREGATE = 'all';

export interface PlatformOption {
  /** `all` or a key of `meta.platforms`. */
  key: string;
  /** Step name: `aggregate (all)` or `豆包 (doubao)`. */
  stepName: string;
}

/**
 * The six AI answer platforms in display order: the first six of `DATA.meta.platforms` (spec 7.6
 * "fixed order", docs/rules.md §D7).
 */
export function aiPlatforms(data: Data): PlatformMeta[] {
  return data.meta.platforms.slice(0, AI_PLATFORM_COUNT);
}

/**
 * The platforms of `DATA.meta.platforms` after the first six, which no item compares (docs/contract.md
 * §5: "the first six are the AI answer platforms"), said in the notes of the items that go platform
 * by platform (4, 5 and 7 to 12), so a report with a seventh sees it was left out (clean-room audit
 * of 2026-11-26).
 */
export function beyondSixNote(data: Data): string[] {
  const rest = data.meta.platforms.slice(AI_PLATFORM_COUNT);
  if (rest.length === 0) return [];
  const names = rest.map((p) => `${p.name} (${p.key})`).join(', ');
  return [
    `DATA.meta.platforms lists ${data.meta.platforms.length} platforms: the first ${AI_PLATFORM_COUNT} are the AI answer platforms compared (docs/contract.md §5); not compared: ${names}`,
  ];
}

/** The seven platform options of the report: the aggregate, then the six AI platforms. */
export function platformOptions(data: Data): PlatformOption[] {
  return [
    { key: AGGREGATE, stepName: 'aggregate (all)' },
    ...aiPlatforms(data).map((p) => ({ key: p.key, stepName: `${p.name} (${p.key})` })),
  ];
}

/** docs/rules.md §D2: a per-platform group the HTML does not have is not compared for that platform. */
export function notComparedNote(stepName: string, htmlPath: string): string {
  return `${stepName}: the HTML has no ${htmlPath}; not compared for this platform (docs/rules.md §D2)`;
}
