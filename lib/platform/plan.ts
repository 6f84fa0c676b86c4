import type { ConfiguredRun } from '../run/inputs';
import { credentialKeyFor, describeKey, type CredentialKey } from '../run/credentials';
import { recognizeProfile } from '../run/profile';
import type { ProfileBSettings } from '../run/types';
import { pageLoginBase, readUrls } from '../run/url';

export interface PlannedLogin {
  loginBase: string;
  key: CredentialKey;
  title: string;
}

/**
 * The logins the auth setup makes before collection: one per login base and credentials entry
 * known from the URLs. A run recognized as Profile B only by DATA.meta.line logs in lazily later.
 */
export function plannedLogins(runs: ConfiguredRun[], profileB: ProfileBSettings): PlannedLogin[] {
  const planned = new Map<string, PlannedLogin>();
  for (const run of runs) {
    if (run.inputError) continue;
    let facts;
    try {
      facts = readUrls(run.input);
    } catch {
      continue; // collection reports the URL error for this run
    }
    const { profile } = recognizeProfile({ host: facts.host, companyId: facts.companyId }, profileB);
    const key = credentialKeyFor(profile, facts.companyId);
    for (const loginBase of new Set([facts.baseUrl, pageLoginBase(run.input.htmlUrl, facts.baseUrl)])) {
      const id = `${loginBase} ${key}`;
      if (!planned.has(id)) {
        planned.set(id, {
          loginBase,
          key,
          title: `${describeKey(key)} @ ${loginBase.replace(/^https?:\/\//, '')}`,
        });
      }
    }
  }
  return [...planned.values()];
}
