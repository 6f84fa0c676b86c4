import type { Profile } from '../schema/vocabulary';
import type { ProfileBSettings } from './types';
import { onPortalHost } from './url';

export interface ProfileFacts {
  host: string;
  /**
   * The report's scheme, when known: the configured host is then written for it alone (a `:443`
   * matches an https page, never an http one), as where credentials may go is decided (§3).
   */
  protocol?: string;
  companyId: number;
  /** DATA.meta.line, once the report has been read. */
  line?: string;
}

export interface ProfileDecision {
  profile: Profile;
  /** Which rule of spec 9.1.1 recognized Profile B, or why Profile A applies. */
  reason: string;
}

/**
 * Spec 9.1.1 / docs/contract.md §2: Profile B when the report host equals {portal_b_host}, or the
 * line contains the group's name, or companyId equals the group's fixed id. An unset setting never
 * matches. Otherwise Profile A.
 */
export function recognizeProfile(facts: ProfileFacts, settings: ProfileBSettings): ProfileDecision {
  const page = facts.protocol ? new URL(`${facts.protocol}//${facts.host}`) : facts.host;
  if (onPortalHost(page, settings.host))
    return { profile: 'B', reason: 'report host is the group portal host' };
  if (settings.companyId !== undefined && facts.companyId === settings.companyId) {
    return { profile: 'B', reason: `companyId ${facts.companyId} is the group's fixed id` };
  }
  const group = settings.groupName?.trim();
  if (group && facts.line !== undefined && facts.line.includes(group)) {
    return { profile: 'B', reason: 'DATA.meta.line names the group' };
  }
  return { profile: 'A', reason: 'no Profile B rule matched (spec 9.1.1)' };
}
