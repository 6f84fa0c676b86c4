import path from 'node:path';
import type { z } from 'zod';
import { AI_PLATFORM_COUNT, dataForProfile, dataSchemaFor, rawLine, type Data } from '../schema/data';
import { parseWith, pathText, SchemaError } from '../schema/issues';
import {
  batchList,
  competitorTable,
  metricsTables,
  readDuplicates,
  wordcloudPayload,
  type MetricsTable,
  type PlatformEvidence,
  type SnapshotRow,
} from '../schema/platform';
import type { ConfiguredRun } from '../run/runs';
import { recognizeProfile } from '../run/profile';
import type { ProfileBSettings } from '../run/types';
import { credentialOrigins, pageLoginBase, portalHost, readUrls, type UrlFacts } from '../run/url';
import { credentialKeyFor, type CredentialKey } from '../run/credentials';
import { namedIds, BATCH_LIST, confirmBuiltBatch, dayOfBatchDate, idParts, resolveBatch } from './batches';
import { EndpointError, PlatformClient } from './client';
import { LoginError } from './login';
import { isLoopbackHost } from '../util/host';
import { redactText, redactUrl } from '../redaction/url';
import { initialEvidence, type Evidence, type FailureKind } from './evidence';
import type { HttpGetter } from './http';
import { readJsonFile } from '../util/json';

export interface CollectDeps {
  root: string;
  profileB: ProfileBSettings;
  timeoutMs: number;
  retries: number;
  backoffMs: number;
  /** Storage-state path of a logged-in session at `loginBase` for `key`; `force` logs in again. */
  session(loginBase: string, key: CredentialKey, force?: boolean): Promise<string>;
  /**
   * Opens the report with that session (none on an origin credentials may not go to): raw DATA and
   * notes (throws SessionExpired on /login).
   */
  readPage(
    htmlUrl: string,
    statePath: string | undefined,
    origins: readonly string[],
  ): Promise<{ data: unknown; notes: string[] }>;
  newApiContext(statePath: string): Promise<HttpGetter>;
  /** Largest answer or DATA accepted (L1_MAX_ANSWER_MB). */
  maxBytes?: number;
  /** Masks known secrets (registry values, session cookies) and URL secrets in the run's reason. */
  mask?: (text: string) => string;
  /** Origins besides the run's base URL and the Profile B portal where credentials may go (L1_LOGIN_ORIGINS). */
  loginOrigins?: readonly string[];
  /**
   * L1_TIME_ZONE, the zone the suite's days are in: a batch list `batchDate` written as an instant
   * with a zone names its day there (docs/contract.md §4.1).
   */
  timeZone: string;
}

/** Stops the collection with a status and a reason; caught once in collectRun. */
class Stop extends Error {
  constructor(
    readonly status: 'error' | 'needs-input',
    reason: string,
    readonly kind: FailureKind = status === 'needs-input' ? 'needs-input' : 'input',
  ) {
    super(reason);
  }
}

const SESSION_EXPIRED = 'SessionExpired';
/**
 * The name of the error a page reader throws when no browser could be started: the invocation's
 * configuration (L1_CHROMIUM_PATH, an installed Chromium), not the run's page.
 */
export const BROWSER_NOT_STARTED = 'BrowserNotStarted';

function messageOf(e: unknown): string {
  return withoutPlaywrightLogs(e instanceof Error ? e.message : String(e));
}

/**
 * A Playwright error's message without the logs Playwright appends (`Browser logs:` with the
 * browser's whole command line, `Call log:` with each action's waits): they name no cause a
 * reader of the verdict can act on, and crowded out the cause it does name (a page closed under a
 * stop read "page.evaluate: Target page, context or browser has been closed" and then 2,000
 * characters of Chromium's flags).
 */
function withoutPlaywrightLogs(message: string): string {
  return message.replace(/\n+(?:Browser logs|Call log):[^]*$/, '');
}

/**
 * The run's profile for a `meta.line` (spec 9.1.1), decided before DATA is parsed: a Profile A run
 * never validates the fields only Profile B reads (`dataForProfile`).
 */
type ProfileOf = (line: string | undefined) => 'A' | 'B';

/** Reads cal_data_json (docs/contract.md §5): unreadable or invalid is an error, never a silent fallback. */
function readCalData(
  file: string,
  root: string,
  level: 'brand' | 'product',
  profileOf: ProfileOf,
): { raw: unknown; parsed: Data } {
  const where = path.resolve(root, file);
  const read = readJsonFile(where);
  // Never a silent fallback to the page (spec 2.1).
  if (read.why !== undefined)
    throw new Stop('error', `cal_data_json ${where}: ${read.why}; the page is not used instead`);
  const json = read.value;
  try {
    return {
      raw: json,
      parsed: parseWith(
        dataSchemaFor(level),
        dataForProfile(json, profileOf(rawLine(json))),
        `cal_data_json ${where}`,
        'cal_data_json',
      ),
    };
  } catch (e) {
    throw new Stop('error', messageOf(e)); // the run's own input, like the page's DATA
  }
}

/**
 * Collects the evidence of one run, once: URLs → DATA (page or cal_data_json) → profile →
 * batch ids → every endpoint once, validated. Never throws: a failure becomes the run's status.
 */
export async function collectRun(run: ConfiguredRun, deps: CollectDeps): Promise<Evidence> {
  const evidence = initialEvidence(run);
  let client: PlatformClient | undefined;
  try {
    if (run.inputError) throw new Stop('error', run.inputError);
    const facts = readUrlsOrStop(run);
    Object.assign(evidence.run, {
      companyId: facts.companyId,
      projectId: facts.projectId,
      reportType: facts.reportType,
      batchDate: facts.batchDate,
    });
    // Known from the URLs and the configuration: in the verdict whatever fails later (docs/rules.md).
    // Spec 9.1.1 by the URL, the company and DATA's `meta.line`: before DATA (its account, its
    // validation: `dataForProfile`) and after, with the line DATA holds.
    const decide = (line?: string) =>
      recognizeProfile(
        { host: facts.host, protocol: facts.protocol, companyId: facts.companyId, line },
        deps.profileB,
      );
    const early = decide();
    evidence.run.profile = early.profile;
    const data = await readData(
      run,
      facts,
      deps,
      evidence,
      credentialKeyFor(early.profile, facts.companyId),
      (line) => decide(line).profile,
    );
    const decision = decide(data.parsed.meta.line);
    evidence.run.profile = decision.profile;
    evidence.notes.push(`profile ${decision.profile}: ${decision.reason}`);
    // After the profile: the verdict of another day's DATA names the profile its line gives.
    const dayNote = sameDayOrStop(
      data.parsed,
      facts.batchDate,
      deps.timeZone,
      dataSourceName(run, evidence, deps.root),
    );
    if (dayNote) evidence.notes.push(dayNote);

    const apiKey = credentialKeyFor(decision.profile, facts.companyId);
    // Contexts are disposed only at the end: requests still in flight on an expired session's
    // context must not be cut off by the re-login (they retry on the new one after their own 401).
    const contexts = [await deps.newApiContext(await sessionOrStop(deps, facts.baseUrl, apiKey, evidence))];
    client = new PlatformClient({
      baseUrl: facts.baseUrl,
      timeoutMs: deps.timeoutMs,
      ...(deps.maxBytes ? { maxBytes: deps.maxBytes } : {}),
      retries: deps.retries,
      backoffMs: deps.backoffMs,
      context: () => contexts[contexts.length - 1]!,
      relogin: async () => {
        contexts.push(await deps.newApiContext(await deps.session(facts.baseUrl, apiKey, true)));
      },
    });
    try {
      const platform = await fetchPlatform(run, facts, decision.profile, data.parsed, deps, client, evidence);
      evidence.parsed = { data: data.parsed, platform };
      evidence.status = 'checked';
    } finally {
      await Promise.all(contexts.map((c) => c.dispose()));
    }
  } catch (e) {
    evidence.status = e instanceof Stop ? e.status : 'error';
    evidence.failureKind = e instanceof Stop ? e.kind : 'platform';
    evidence.reason = (deps.mask ?? redactText)(messageOf(e));
  }
  evidence.requests = client?.log ?? [];
  return evidence;
}

/**
 * What a failed login is: the login page or its answer (platform), or what the suite was given —
 * a registry that is missing, lacks the company or holds a wrong password, an origin that is not
 * trusted (configuration: fix the settings, not the run).
 */
export function loginFailureKind(e: unknown): FailureKind {
  // What the login itself calls a moment of the platform (HTTP 5xx or 408, no answer, a connection
  // cut); a failure remembered from an earlier run comes back as its message alone.
  if (e instanceof LoginError && e.transient) return 'platform';
  const message = messageOf(e);
  if (/did not load|HTTP 5\d\d|no answer|moved to another origin/.test(message)) return 'platform';
  if (
    /credentials registry|no entry for company|no "profileB" entry|answered HTTP 401|L1_LOGIN_ORIGINS|not trusted/.test(
      message,
    )
  )
    return 'configuration';
  return 'input';
}

/** A login that fails stops the run, with the kind of its failure. */
async function sessionOrStop(
  deps: CollectDeps,
  loginBase: string,
  key: CredentialKey,
  evidence: Evidence,
  force = false,
): Promise<string> {
  const base = new URL(loginBase);
  const note = `warning: credentials for ${base.origin} go over plain http:// (not loopback): use https`;
  if (base.protocol === 'http:' && !isLoopbackHost(base.hostname) && !evidence.notes.includes(note))
    evidence.notes.push(note);
  try {
    return await deps.session(loginBase, key, force);
  } catch (e) {
    const message = messageOf(e);
    throw new Stop('error', message, loginFailureKind(e));
  }
}

/**
 * docs/contract.md §3: the origins credentials may be posted to for a run's report page: the
 * run's base URL, the Profile B portal host, and L1_LOGIN_ORIGINS.
 */
export function trustedLoginOrigin(
  htmlUrl: string,
  baseUrl: string,
  deps: Pick<CollectDeps, 'profileB' | 'loginOrigins'>,
): boolean {
  return credentialOrigins(htmlUrl, baseUrl, deps.profileB.host, deps.loginOrigins ?? []).includes(
    new URL(htmlUrl).origin,
  );
}

/** The origins a report page may reach (pages/box.ts adds L1_PAGE_ORIGINS): its own and the login ones. */
function pageOrigins(htmlUrl: string, baseUrl: string, deps: CollectDeps): string[] {
  const page = new URL(htmlUrl);
  const host = portalHost(deps.profileB.host, page.protocol);
  const portal = host ? [`${page.protocol}//${host}`] : [];
  return [...new Set([page.origin, new URL(baseUrl).origin, ...portal, ...(deps.loginOrigins ?? [])])];
}

/** How a run's reason names where its DATA came from (as the parse's errors name it). */
function dataSourceName(run: ConfiguredRun, evidence: Evidence, root: string): string {
  return evidence.run.dataSource === 'cal_data_json' && run.input.calDataJson
    ? `cal_data_json ${path.resolve(root, run.input.calDataJson)}`
    : `report page DATA (${redactUrl(run.input.htmlUrl)})`;
}

/**
 * A DATA whose own `meta.batch_date` names another day than the run's (the report URL's) is another
 * day's report, whatever address it was served at (a stale page, a server that falls back to its
 * latest report, a cal_data_json of the topic's earlier day): its figures are not the report's of the
 * run, and compared with the run's batch they passed wherever the two days agreed (foolproof audit of
 * 2026-11-28). The contract (shared/spec/contract.md §5) lists `batch_date` among the fields the
 * suite relies on and fixes no shape for it, so it is read as the batch list's batchDate is
 * (`dayOfBatchDate`, docs/contract.md §4.1): a date or a local date-time names its written day, an
 * instant with a zone its day in L1_TIME_ZONE (review of 2026-11-28: a stale DATA written
 * `2025-11-10 08:00:00` or `…T00:00:00+08:00` was left alone and passed), and also as a generator
 * writes a day the batch list would not (`dataDayText`): a JSON number YYYYMMDD, `YYYY/MM/DD`,
 * `YYYY.MM.DD`, `YYYY年MM月DD日` (HTML-side audit 59f: a stale DATA of 20251103 was checked and
 * passed). Another value (`latest`, an epoch) is not read, and the run's notes say so: the note
 * returned; as they say it of a DATA with no `batch_date` (review 59r: it was left out in silence).
 */
function sameDayOrStop(data: Data, batchDate: string, timeZone: string, source: string): string | undefined {
  const written = data.meta.batch_date;
  const text = dataDayText(written);
  const read = text === undefined ? undefined : dayOfBatchDate(text, timeZone);
  if (read === undefined)
    return written === undefined || written === null
      ? `DATA.meta.batch_date is ${written === null ? 'null' : 'missing'} (optional, docs/contract.md §5): whether the DATA is the batch date's report was not checked`
      : `DATA.meta.batch_date ${JSON.stringify(written).slice(0, 40)} is not a day the suite reads: whether the DATA is the batch date's report was not checked`;
  if (read.day === batchDate) return undefined;
  const inZone = read.zoned ? ` (${read.day} in ${timeZone})` : '';
  throw new Stop(
    'error',
    `${source}: DATA.meta.batch_date is ${JSON.stringify(written)}${inZone}, another day than the run's batch date ${batchDate} (from the report URL): the DATA is another day's report, so it is not compared with the batch of ${batchDate}`,
  );
}

/**
 * `meta.batch_date` as the text `dayOfBatchDate` reads: a string trimmed, with a day written
 * `YYYY/MM/DD`, `YYYY.MM.DD`, `YYYY年M月D日` or `YYYY-M-D` as `YYYY-MM-DD`, a time after it kept
 * (`2025/11/03 08:00:00`, `2025年11月3日 08:00`: review 59i, such a stale DATA was only noted, as
 * the forms without a time had been before audit 59f), a local time in any form (`LOCAL_TIME`) read
 * as its day alone; an integer of eight digits as `YYYYMMDD` (a
 * JSON number, as a generator's database column serialises a date key). Anything else: undefined.
 */
function dataDayText(written: unknown): string | undefined {
  if (typeof written === 'number')
    return Number.isInteger(written) && /^\d{8}$/.test(String(written)) ? String(written) : undefined;
  if (typeof written !== 'string') return undefined;
  const text = written.trim();
  const day = /^(\d{4})(?:\/|\.|-|年)(\d{1,2})(?:\/|\.|-|月)(\d{1,2})(日?)(.*)$/.exec(text);
  if (!day) return text;
  const date = `${day[1]}-${day[2]!.padStart(2, '0')}-${day[3]!.padStart(2, '0')}`;
  const rest = day[5]!;
  // A local time names the written day whatever its clock looks like (review 59n).
  if ((day[4] || /^[T ]/.test(rest)) && LOCAL_TIME.test(rest)) return date;
  return /^(?:$|[T ])/.test(rest) ? `${date}${rest.replace(/^ +/, ' ')}` : text;
}

/**
 * A time of day with no zone as generators write it after the day: an unpadded hour
 * (`8:00`), zh-CN's 12-hour clock (`上午8:00:00`, what `toLocaleString('zh-CN', { hour12: true })`
 * writes), `AM`/`PM`, or nothing between 日 and the clock: the day is the written one, as the
 * batch list's `YYYY-MM-DD HH:MM` is (review 59n: such a stale DATA was only noted).
 */
const LOCAL_TIME =
  /^[T\s]*(?:(?:上午|下午|中午|晚上|凌晨)\s*)?\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:\s*[AP]M)?$/i;

function readUrlsOrStop(run: ConfiguredRun): UrlFacts {
  try {
    return readUrls(run.input);
  } catch (e) {
    throw new Stop('error', messageOf(e));
  }
}

async function readData(
  run: ConfiguredRun,
  facts: UrlFacts,
  deps: CollectDeps,
  evidence: Evidence,
  pageKey: CredentialKey,
  profileOf: ProfileOf,
): Promise<{ raw: unknown; parsed: Data }> {
  if (run.input.calDataJson) {
    const cal = readCalData(run.input.calDataJson, deps.root, run.input.level ?? 'brand', profileOf);
    const calTopic = cal.parsed.meta.topic === undefined ? undefined : String(cal.parsed.meta.topic);
    if (facts.topic !== undefined && calTopic === facts.topic) {
      evidence.run.dataSource = 'cal_data_json';
      evidence.notes.push(
        `cal_data_json belongs to topic ${facts.topic}: used instead of the page's DATA (spec 2.1)`,
      );
      return cal;
    }
    evidence.notes.push(
      `cal_data_json topic ${calTopic ?? '(none)'} differs from the report URL topic ${facts.topic ?? '(none)'}: the page's DATA wins (spec 2.1)`,
    );
  }
  // Contract §3 (shared/spec/contract.md): credentials go only to a trusted origin. A report on the
  // run's base_url origin is opened with that origin's session. A report on another origin is
  // opened without logging in there: only when it redirects to its own /login, and its origin is
  // trusted (the Profile B portal, L1_LOGIN_ORIGINS), does the suite log in there and load it
  // again; an untrusted one that asks is refused, nothing posted.
  const pageOrigin = new URL(run.input.htmlUrl).origin;
  const trusted = trustedLoginOrigin(run.input.htmlUrl, facts.baseUrl, deps);
  const pageBase = trusted ? pageLoginBase(run.input.htmlUrl, facts.baseUrl) : undefined;
  const loginFirst = pageBase !== undefined && pageOrigin === new URL(facts.baseUrl).origin;
  let state = loginFirst ? await sessionOrStop(deps, pageBase, pageKey, evidence) : undefined;
  let renewed = false;
  let raw: unknown;
  for (;;) {
    try {
      evidence.pageLoads++;
      const page = await deps.readPage(
        run.input.htmlUrl,
        state,
        pageOrigins(run.input.htmlUrl, facts.baseUrl, deps),
      );
      raw = page.data;
      evidence.notes.push(...page.notes);
      break;
    } catch (e) {
      if (e instanceof Error && e.name === BROWSER_NOT_STARTED)
        throw new Stop(
          'error',
          `report page ${redactUrl(run.input.htmlUrl)}: ${messageOf(e)}`,
          'configuration',
        );
      if (!(e instanceof Error) || e.name !== SESSION_EXPIRED)
        throw new Stop('error', `report page ${redactUrl(run.input.htmlUrl)}: ${messageOf(e)}`);
      if (pageBase === undefined)
        throw new Stop(
          'error',
          `report page ${redactUrl(run.input.htmlUrl)} asks for a login on ${pageOrigin}, which is not an origin credentials may go to (the run's base URL ${new URL(facts.baseUrl).origin}, the Profile B portal, L1_LOGIN_ORIGINS): credentials were not sent; add it to L1_LOGIN_ORIGINS if it is the platform's own`,
          'configuration',
        );
      if (renewed)
        throw new Stop(
          'error',
          `report page ${redactUrl(run.input.htmlUrl)}: redirected to /login even after logging in again`,
        );
      // Opened without a session (another origin) and asked for one: its session, made now unless
      // another run made it already. Opened with a session and asked again: a new login, once.
      if (state === undefined) state = await sessionOrStop(deps, pageBase, pageKey, evidence);
      else {
        // A login that fails here is the same failure as the first one's (its kind, its note).
        state = await sessionOrStop(deps, pageBase, pageKey, evidence, true);
        renewed = true;
      }
    }
  }
  try {
    return {
      raw,
      parsed: parseWith(
        dataSchemaFor(run.input.level ?? 'brand'),
        dataForProfile(raw, profileOf(rawLine(raw))),
        `report page DATA (${redactUrl(run.input.htmlUrl)})`,
        'DATA',
      ),
    };
  } catch (e) {
    throw new Stop('error', messageOf(e));
  }
}

/**
 * Snapshot rows whose `crawlBatchId` names a batch other than those asked for are another batch's
 * figures (a platform that ignores ids it does not know and answers its latest batch): the run is
 * not compared (foolproof audit of 2026-11-28: it was checked and passed every item). The rows'
 * `crawlBatchId` is the one field of the answers that names their batch (contract §4.2; spec 9.1.3
 * makes it authoritative, so after a built diagnosis id the ids asked for are already the rows'
 * own: `confirmBuiltBatch`). A row without one (missing, null or "") names no batch and is accepted
 * (docs/contract.md §4.2), as `confirmBuiltBatch` reads it; the competitor, tmc, source and word cloud answers carry no batch id.
 * Ids are compared one by one, a comma-joined one part by part.
 */
function sameBatchOrStop(rows: readonly SnapshotRow[], batchIds: readonly string[]): void {
  const answered = [...new Set(rows.flatMap((r) => (r.crawlBatchId ? [r.crawlBatchId] : [])))];
  const asked = new Set(batchIds.flatMap(idParts));
  const others = answered.filter((id) => idParts(id).some((part) => !asked.has(part)));
  if (others.length === 0) return;
  throw new Stop(
    'error',
    `GET /api/geo-monitor/metrics/l1 (table=snapshot): the rows name crawlBatchId ${namedIds(others)}, not among the batch ids asked for (${namedIds(batchIds)}; the rows name ${namedIds(answered)}): the platform answered another batch, so it is not compared with the report`,
    'platform',
  );
}

/**
 * The failures of a run's requests, one line each, the endpoints that failed alike said once with
 * their failure: a 401 every table answered read four times, and the reason was cut at 300
 * characters in the middle of the third (reader audit of 2026-11-28). The first endpoint with its
 * failure, then the others: `GET … (table=snapshot): HTTP 403: … check the credentials entry;
 * likewise GET … (table=competitor) · GET … (table=tmc)`, then ` | ` before another failure. The
 * failure before the list, since five endpoints alone fill the 300 characters a summary keeps
 * (README § Bounded outputs): listed first, they cut its advice.
 */
function failuresText(failures: readonly unknown[]): string {
  const byDetail = new Map<string, string[]>();
  const others: string[] = [];
  for (const e of failures) {
    if (e instanceof EndpointError) byDetail.set(e.detail, [...(byDetail.get(e.detail) ?? []), e.endpoint]);
    else others.push(messageOf(e));
  }
  return [
    ...[...byDetail].map(
      ([detail, [first, ...rest]]) =>
        `${first}: ${detail}${rest.length ? `; likewise ${rest.join(' · ')}` : ''}`,
    ),
    ...others,
  ].join(' | ');
}

async function fetchPlatform(
  run: ConfiguredRun,
  facts: UrlFacts,
  profile: 'A' | 'B',
  data: Data,
  deps: CollectDeps,
  client: PlatformClient,
  evidence: Evidence,
): Promise<PlatformEvidence> {
  const common = { projectId: facts.projectId, reportType: facts.reportType };
  const metrics = <T extends MetricsTable>(
    table: T,
    batchIds: string[],
    extra: Record<string, string> = {},
  ): Promise<{ parsed: z.output<(typeof metricsTables)[T]> }> =>
    client.getParsed(
      `GET /api/geo-monitor/metrics/l1 (table=${table}${extra.platform ? `, platform=${extra.platform}` : ''})`,
      '/api/geo-monitor/metrics/l1',
      { table, batchIds: batchIds.join(','), ...common, ...extra },
      // The competitor rows' duplicates among those the run reads (spec 9.5.2, `competitorTable`).
      (table === 'competitor'
        ? competitorTable(profile, run.input.level ?? 'brand')
        : metricsTables[table]) as z.ZodType,
    ) as Promise<{ parsed: z.output<(typeof metricsTables)[T]> }>;

  let batchIds: string[];
  let snapshot: Awaited<ReturnType<typeof metrics<'snapshot'>>> | undefined;
  if (run.input.batchId) {
    batchIds = [run.input.batchId];
    evidence.notes.push(`batch id given by the run: ${run.input.batchId} (batch discovery skipped)`);
    // A Profile B diagnosis: the id a user gives after 9.1.2's "stop and ask" (the suite's own
    // advice: set batchId on the run) is confirmed as a built one is, since 9.1.3 makes the rows'
    // crawlBatchId authoritative there (an SX-HIST form for a HIST one): every table is then asked
    // with it. Elsewhere rows naming another batch stop the run (`sameBatchOrStop`). Review of
    // 2026-11-28: such a run followed the advice and was a platform error.
    if (profile === 'B' && facts.reportType === 'diagnosis') {
      const answer = await metrics('snapshot', batchIds);
      // Rows naming the given id confirm it, as they do a built one (`confirmBuiltBatch`): another id
      // beside them is a platform that mixed batches, which sameBatchOrStop stops, never a second id
      // every table is asked with (review of dad9212). No rows: the given id stands.
      const confirmed = confirmBuiltBatch(run.input.batchId, answer.parsed.rows);
      if (confirmed.kind === 'found' && confirmed.batchIds.join(',') !== run.input.batchId) {
        evidence.notes.push(confirmed.note);
        batchIds = confirmed.batchIds;
      } else snapshot = answer;
    }
  } else {
    const items = await client.get(
      BATCH_LIST,
      '/api/geo_label/project/batch',
      { companyId: String(facts.companyId), reportType: facts.reportType },
      batchList,
    );
    const resolution = resolveBatch(items, {
      ...facts,
      timeZone: deps.timeZone,
      profile,
      ...(deps.profileB.brandCode ? { brandCode: deps.profileB.brandCode } : {}),
    });
    if (resolution.kind === 'error') throw new Stop('error', resolution.reason, resolution.failure);
    evidence.notes.push(resolution.note);
    if (resolution.kind === 'build') {
      const answer = await metrics('snapshot', [resolution.builtId]);
      const confirmed = confirmBuiltBatch(resolution.builtId, answer.parsed.rows);
      if (confirmed.kind === 'needs-input') throw new Stop('needs-input', confirmed.reason);
      evidence.notes.push(confirmed.note);
      batchIds = confirmed.batchIds;
      // Re-fetch only when the authoritative id differs from the built one (spec 9.1.3).
      if (batchIds.length === 1 && batchIds[0] === resolution.builtId) snapshot = answer;
    } else {
      batchIds = resolution.batchIds;
      if (resolution.aside) evidence.notes.push(resolution.aside);
    }
  }
  evidence.run.batchIds = batchIds;

  // The aggregate and the six AI platforms: the first six of meta.platforms (docs/rules.md §D7).
  const options = ['all', ...data.meta.platforms.slice(0, AI_PLATFORM_COUNT).map((p) => p.key)];
  const sourceOptions = options.filter(
    (key) => key === 'all' || data.brand.platforms[key]?.citation.source_top30 !== undefined,
  );
  const htmlSourceCount = (key: string) =>
    key === 'all'
      ? data.brand.source_top30.length
      : (data.brand.platforms[key]?.citation.source_top30?.length ?? 0);

  const tasks = {
    snapshot: snapshot ? Promise.resolve(snapshot) : metrics('snapshot', batchIds),
    competitor: metrics('competitor', batchIds),
    tmc: metrics('tmc', batchIds),
    wordcloud: client.getParsed(
      'GET /api/geo-monitor/projects/{project}/wordcloud',
      `/api/geo-monitor/projects/${encodeURIComponent(facts.projectId)}/wordcloud`,
      { batchId: batchIds[0] ?? '', sentiment: 'all' },
      wordcloudPayload,
    ),
    sources: Promise.all(
      sourceOptions.map(async (key) => [key, await metrics('source', batchIds, { platform: key })] as const),
    ),
  };
  const settled = await Promise.allSettled(Object.values(tasks));
  const failures = settled.flatMap((s) => (s.status === 'rejected' ? [s.reason as unknown] : []));
  if (failures.length) throw new Stop('error', failuresText(failures), 'platform');

  const sources = await tasks.sources;
  const tables = {
    snapshot: await tasks.snapshot,
    competitor: await tasks.competitor,
    tmc: await tasks.tmc,
  };
  // Two rows of one key among those the run reads, as the schemas said it before review 59j: the
  // rows of a seventh platform, or of a key DATA does not list, are read by no item (`readDuplicates`).
  const read = new Set(options);
  const repeated = [
    ['snapshot', readDuplicates('snapshot', tables.snapshot.parsed.rows, read)],
    ['tmc', readDuplicates('tmc', tables.tmc.parsed.rows, read)],
  ] as const;
  const schemaErrors = repeated
    .filter(([, found]) => found.length > 0)
    .map(
      ([table, found]) =>
        new SchemaError(
          `GET /api/geo-monitor/metrics/l1 (table=${table})`,
          found.map((d) => `${pathText('payload.rows', d.path)}: ${d.message}`),
        ),
    );
  if (schemaErrors.length) throw new Stop('error', failuresText(schemaErrors), 'platform');
  sameBatchOrStop(tables.snapshot.parsed.rows, batchIds);
  const emptyTables = (['snapshot', 'competitor', 'tmc'] as const)
    .filter((t) => tables[t].parsed.rows.length === 0)
    .map((t) => `table=${t}`);
  // A table of the whole batch with no row says the batch is not the report's: the run stops. With
  // those answering, the batch is the report's, and a source option with no row where the HTML lists
  // sources lacks a group the HTML has (contract §6): items 11 and 12 fail for it, and every other
  // item is judged (platform audit of 2026-11-28: the whole run was an error, "check the batch", and
  // items 3 to 10 went unchecked). Unless every option the HTML has sources for is empty, or every
  // platform's of two or more (the aggregate's answering): then the batch's source rows are not
  // there, as an empty batch table says (reviews of 2026-11-28).
  const sourced = sources.filter(([key]) => htmlSourceCount(key) > 0);
  const emptyKeys = sourced.filter(([, answer]) => answer.parsed.rows.length === 0).map(([key]) => key);
  const platforms = sourced.map(([key]) => key).filter((k) => k !== 'all');
  const everySource =
    emptyKeys.length > 0 &&
    (emptyKeys.length === sourced.length ||
      (platforms.length >= 2 && platforms.every((k) => emptyKeys.includes(k))));
  const stops = emptyTables.length > 0 || everySource;
  if (!stops)
    for (const key of emptyKeys)
      evidence.notes.push(
        `GET /api/geo-monitor/metrics/l1: no row for table=source, platform=${key}, where the HTML lists sources: items 11 and 12 fail for ${key === 'all' ? 'the aggregate' : 'it'} (a group the platform lacks, contract §6)`,
      );
  const empty = stops ? [...emptyTables, ...emptyKeys.map((key) => `table=source, platform=${key}`)] : [];
  if (empty.length) {
    throw new Stop(
      'error',
      `GET /api/geo-monitor/metrics/l1: rows is empty for ${empty.join('; ')} (batchIds ${batchIds.join(',')}): check the batch of the report date`,
      'platform',
    );
  }
  return {
    snapshot: tables.snapshot.parsed.rows,
    competitor: tables.competitor.parsed.rows,
    tmc: tables.tmc.parsed.rows,
    sources: Object.fromEntries(sources.map(([key, answer]) => [key, answer.parsed.rows])),
    wordcloud: (await tasks.wordcloud).parsed,
  };
}
