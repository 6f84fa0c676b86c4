import type { Profile } from '../lib/rules/types';
import type { Dimension } from './spec';
import { NO_TIME, OTHER, UNKNOWN } from './vocab';

/**
 * The share arithmetic of the platform's charts (spec 7.3 to 7.5, 9.4.2), once, for both data
 * generators: the demo's platform view (demo/view-platform.ts) and the generated cases
 * (demo/model/render.ts) print the platform's side of a group of counts with it.
 */

export interface Share {
  name: string;
  value: number;
}

/** 「其他」 and 「未知」: dropped from the media charts (7.4, 7.5) and the Profile B media type (9.4.2). */
export const isDropped = (name: string) => name === OTHER || name === UNKNOWN;

const sum = (entries: readonly Share[]) => entries.reduce((s, e) => s + (e.value > 0 ? e.value : 0), 0);

/**
 * The entries the platform shows for a group of counts and each one's share in percent, in the
 * group's order. Content type: over the whole group (7.3.4). Publish time: the dated entries, over
 * themselves (7.3.2), or over the whole group where the HTML's own percentages still include a
 * small 「无时间」 (`publishTimeOverAll`, 7.3.3). Media type and media name: without 「其他」 and
 * 「未知」, over the rest (7.4, 7.5), except the Profile B media type, over the whole group (9.4.2).
 */
export function platformShares(
  entries: readonly Share[],
  dimension: Dimension,
  profile: Profile,
  options: { publishTimeOverAll?: boolean } = {},
): Share[] {
  const over = (kept: readonly Share[], denominator: number) =>
    kept.map((e) => ({ name: e.name, value: (e.value / denominator) * 100 }));
  if (dimension === 'content_type') return over(entries, sum(entries));
  if (dimension === 'publish_time') {
    const dated = entries.filter((e) => e.name !== NO_TIME);
    return over(dated, options.publishTimeOverAll ? sum(entries) : sum(dated));
  }
  const kept = entries.filter((e) => !isDropped(e.name));
  return over(kept, dimension === 'media_category' && profile === 'B' ? sum(entries) : sum(kept));
}
