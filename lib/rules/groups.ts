/**
 * Kept for imports from outside lib/rules. New code imports what it needs from platforms.ts (the
 * platform options), sorting.ts (stable sort) or rows.ts (row builders).
 */
export { AGGREGATE, AI_PLATFORM_COUNT, aiPlatforms, notComparedNote, platformOptions } from './platforms';
export type { PlatformOption } from './platforms';
export { bothEmptyRow, countRow, missingGroupRow } from './rows';
export { stableSortDesc } from './sorting';
