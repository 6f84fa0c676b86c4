/** Words every layer shares (docs/contract.md §1, §2): the report types, profiles and levels. */
export type ReportType = 'monitor' | 'diagnosis';
export type Profile = 'A' | 'B';
export type Level = 'brand' | 'product';

/**
 * Names a share chart removes before it is read, on both sides: 「无时间」 from publish time (spec
 * 7.3.2), 「其他」「未知」 from media type and media name (7.4, 7.5, 9.4.2). Here for the tmc schema,
 * which must not call them duplicates (lib/schema/platform.ts); the rules name them NO_TIME and
 * OTHER_AND_UNKNOWN (lib/rules/share-sides.ts). Both read a name through `isRemovedName`.
 */
export const REMOVED_NAMES = { noTime: '无时间', otherAndUnknown: ['其他', '未知'] as readonly string[] };

/**
 * Whether a name is one of `names` a chart removes, whitespace around it aside: a legend or bar
 * shows 「其他 」 (a generator's padding, an ideographic space U+3000) as 「其他」 (HTML-side audit
 * 59f). The one test of the rules and of the tmc schema: the schema's own exact test called two
 * rows of 「其他 」 a duplicate that the rules then removed, and the run was an error of all ten
 * items (review 59i).
 */
export function isRemovedName(name: string, names: readonly string[]): boolean {
  return names.includes(name.trim());
}
