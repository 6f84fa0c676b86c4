import type { Profile } from '../schema/vocabulary';
import type { ProfileBSettings } from './types';
import { onPortalHost, readUrls, type UrlFacts } from './url';

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
  // "Contains the group's name" as text, not as code points: a name written in one Unicode form in
  // the settings (NFC, as typed) and in another in the report (NFD 'e' + U+0301, or a CJK
  // compatibility ideograph, as some generators and databases store it) is the same name, and was
  // judged by Profile A's rules (HTML-side audit 59f). NFC only: a fullwidth ＡＢＣ is another text.
  const group = settings.groupName?.trim().normalize('NFC');
  if (group && facts.line !== undefined && facts.line.normalize('NFC').includes(group)) {
    return { profile: 'B', reason: 'DATA.meta.line names the group' };
  }
  return { profile: 'A', reason: 'no Profile B rule matched (spec 9.1.1)' };
}

/** What is known of a run before its report is read: from its URLs (and configured company id). */
export interface UnreadFacts {
  companyId: number;
  projectId: string;
  reportType: UrlFacts['reportType'];
  batchDate: string;
  profile: Profile;
}

/**
 * The facts of a run whose collection never read its report (the night stopped before it started,
 * a shard that left no results), as its collection would have read them from its URLs; its profile
 * by the rules known before its DATA is read (the report host, the company id: spec 9.1.1). A run
 * that is Profile B only by its DATA's line gets A. Undefined when its URLs say nothing (malformed).
 * One function for the verdict file and the Allure result made for such a run, so that both say
 * the same (audit of 2026-11-28: the verdict said `"profile": "A"` and no company where the Allure
 * result said B and company 3100).
 */
export function unreadRunFacts(
  input: { htmlUrl: string; platformUrl: string; companyId?: number | string },
  profileB: ProfileBSettings,
): UnreadFacts | undefined {
  try {
    const facts = readUrls(input);
    return {
      companyId: facts.companyId,
      projectId: facts.projectId,
      reportType: facts.reportType,
      batchDate: facts.batchDate,
      profile: recognizeProfile(
        { host: facts.host, protocol: facts.protocol, companyId: facts.companyId },
        profileB,
      ).profile,
    };
  } catch {
    return undefined;
  }
}
