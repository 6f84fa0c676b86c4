/** Words every layer shares (docs/contract.md §1, §2): the report types, profiles and levels. */
export type ReportType = 'monitor' | 'diagnosis';
export type Profile = 'A' | 'B';
export type Level = 'brand' | 'product';

/**
 * Names a share chart removes before it is read, on both sides: 「无时间」 from publish time (spec
 * 7.3.2), 「其他」「未知」 from media type and media name (7.4, 7.5, 9.4.2). Here for the tmc schema,
 * which must not call them duplicates (lib/schema/platform.ts); the rules name them NO_TIME and
 * OTHER_AND_UNKNOWN (lib/rules/share-sides.ts).
 */
export const REMOVED_NAMES = { noTime: '无时间', otherAndUnknown: ['其他', '未知'] as readonly string[] };
