/** Words every layer shares (docs/contract.md §1, §2): the report types, profiles and levels. */
export type ReportType = 'monitor' | 'diagnosis';
export type Profile = 'A' | 'B';
export type Level = 'brand' | 'product';
