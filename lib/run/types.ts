/** A run as given by L1_RUNS, the L1_* variables or the demo (docs/contract.md §1). */
export interface RunInput {
  htmlUrl: string;
  platformUrl: string;
  baseUrl?: string;
  companyId?: number | string;
  calDataJson?: string;
  batchId?: string;
  label?: string;
  level?: 'brand' | 'product';
}

/** Profile B recognition settings (docs/contract.md §2). An unset value never matches. */
export interface ProfileBSettings {
  host?: string;
  groupName?: string;
  companyId?: number;
  brandCode?: string;
}
