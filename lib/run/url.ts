import type { ReportType } from '../schema/vocabulary';

/** What docs/contract.md §1.1 reads from a run's URLs. */
export interface UrlFacts {
  reportType: ReportType;
  batchDate: string;
  companyId: number;
  topic?: string;
  projectId: string;
  host: string;
  /** The report's scheme (`https:`): which default port its host drops (Profile B host, §2). */
  protocol: string;
  baseUrl: string;
}

export class RunInputError extends Error {
  constructor(
    readonly source: string,
    readonly field: string,
    message: string,
  ) {
    super(`${source} · ${field}: ${message}`);
    this.name = 'RunInputError';
  }
}

/**
 * A text meant as a URL, safe to quote in a message even when it does not parse: whatever follows
 * its first `?` or `#` (a query or fragment may hold a token or a phone number) and anything that
 * looks like userinfo (`name:secret@`, with or without a scheme) masked. lib/run quotes a URL only
 * through this; lib/redaction/url.ts `redactUrl` uses it for the text it cannot parse.
 */
export function maskUrlText(text: string): string {
  const cut = text.search(/[?#]/);
  const head = cut < 0 ? text : text.slice(0, cut);
  const tail = cut < 0 ? '' : `${text[cut]}${cut + 1 < text.length ? '***' : ''}`;
  return head.replace(/(^|[\s/\\,;])[^\s/\\@,;]+@/g, '$1***@') + tail;
}

/**
 * An absolute http(s) URL (docs/contract.md §1): a text without its scheme would otherwise parse
 * as one of its own (`p.example.com:8443` has the scheme `p.example.com:`, `admin:pw@host` the
 * scheme `admin:`) and give the origin `null`. The message names the field and never the userinfo.
 */
function parseUrl(text: string, source: string): URL {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:'))
    throw new RunInputError(
      source,
      'url',
      `not an absolute http(s) URL (write it with https:// or http://): ${JSON.stringify(maskUrlText(text))}`,
    );
  return url;
}

function query(url: URL, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = url.searchParams.get(name);
    if (value !== null && value.trim() !== '') return value.trim();
  }
  return undefined;
}

/**
 * The path's segments in order, percent-decoded; `text` is undefined for one that is not valid
 * percent-encoding (a bare `%`, e.g. `50%off`): the URL is valid, so such a segment is an error only
 * where the suite reads it (the projectId segment, docs/contract.md §1.1).
 */
function segments(url: URL): { raw: string; text: string | undefined }[] {
  return url.pathname
    .split('/')
    .filter(Boolean)
    .map((raw) => {
      try {
        return { raw, text: decodeURIComponent(raw) };
      } catch {
        return { raw, text: undefined };
      }
    });
}

/**
 * A hash-routed page (`https://r.example.com/#/report?reportType=monitor&…`, a common single-page
 * app's address) holds its values after the `#`, which docs/contract.md §1.1 does not read: the
 * message said "add the query reportType=…" of a URL that seemed to have it. Said when the
 * fragment names the value (by its name or its path segment, never its value: a fragment may hold
 * a token); empty otherwise.
 */
function fragmentNote(url: URL, names: readonly string[], segmentsNamed: readonly string[] = []): string {
  const fragment = url.hash.slice(1);
  if (!fragment) return '';
  const query = fragment.includes('?') ? fragment.slice(fragment.indexOf('?') + 1) : fragment;
  const params = new URLSearchParams(query);
  const named = names.find((n) => params.has(n));
  const parts = fragment.split(/[?]/)[0]!.split('/');
  const segment = segmentsNamed.find((s) => parts.includes(s));
  if (!named && !segment) return '';
  return ` (the part after # has ${named ? `${named}=` : `a segment ${segment}`}, which is never read, docs/contract.md §1.1: repeat it in the query before the #, where a hash-routed page ignores it)`;
}

/** YYYY-MM-DD or YYYYMMDD (never a mix such as `2026-0109`), a real calendar date, to YYYY-MM-DD. */
export function normalizeDate(text: string): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text) ?? /^(\d{4})(\d{2})(\d{2})$/.exec(text);
  if (!m) return undefined;
  const [, y, mo, d] = m;
  const date = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  if (date.getUTCMonth() !== Number(mo) - 1 || date.getUTCDate() !== Number(d)) return undefined;
  return `${y}-${mo}-${d}`;
}

function readReportType(url: URL): ReportType {
  const fromQuery = query(url, 'reportType', 'report_type');
  if (fromQuery !== undefined) {
    if (fromQuery === 'monitor' || fromQuery === 'diagnosis') return fromQuery;
    throw new RunInputError(
      'htmlUrl',
      'reportType',
      `must be monitor or diagnosis, got ${JSON.stringify(fromQuery)}`,
    );
  }
  const segment = segments(url)
    .map((s) => s.text)
    .find((s) => s === 'monitor' || s === 'diagnosis');
  if (segment === 'monitor' || segment === 'diagnosis') return segment;
  throw new RunInputError(
    'htmlUrl',
    'reportType',
    `missing: add the query reportType=monitor|diagnosis or a path segment monitor|diagnosis${fragmentNote(url, ['reportType', 'report_type'], ['monitor', 'diagnosis'])}`,
  );
}

function readBatchDate(url: URL): string {
  const fromQuery = query(url, 'batchDate', 'batch_date');
  if (fromQuery !== undefined) {
    const date = normalizeDate(fromQuery);
    if (!date)
      throw new RunInputError(
        'htmlUrl',
        'batchDate',
        `not a date YYYY-MM-DD or YYYYMMDD: ${JSON.stringify(fromQuery)}`,
      );
    return date;
  }
  for (const { text: s } of segments(url)) {
    if (s === undefined) continue;
    if (/^\d{4}-\d{2}-\d{2}$/.test(s) || /^\d{8}$/.test(s)) {
      const date = normalizeDate(s);
      if (date) return date;
    }
  }
  throw new RunInputError(
    'htmlUrl',
    'batchDate',
    `missing: add the query batchDate=YYYY-MM-DD or a path segment YYYY-MM-DD${fragmentNote(url, ['batchDate', 'batch_date'])}`,
  );
}

function readCompanyId(url: URL, fallback: number | string | undefined): number {
  const text =
    query(url, 'companyId', 'company_id') ?? (fallback === undefined ? undefined : String(fallback).trim());
  if (text === undefined || text === '') {
    throw new RunInputError(
      'htmlUrl',
      'companyId',
      `missing: add companyId to the report URL or to the run${fragmentNote(url, ['companyId', 'company_id'])}`,
    );
  }
  if (!/^\d+$/.test(text))
    throw new RunInputError('htmlUrl', 'companyId', `not an integer: ${JSON.stringify(text)}`);
  // Past 2^53 a number is another number (…993 reads as …992): another company's, never a guess.
  if (!Number.isSafeInteger(Number(text)))
    throw new RunInputError(
      'htmlUrl',
      'companyId',
      `${JSON.stringify(text)} is past 2^53: not read as a number`,
    );
  return Number(text);
}

function readProjectId(url: URL): string {
  const fromQuery = query(url, 'projectId', 'project_id');
  if (fromQuery !== undefined) return fromQuery;
  const parts = segments(url);
  const i = parts.findIndex((s) => s.text === 'project' || s.text === 'projects');
  const next = i >= 0 ? parts[i + 1] : undefined;
  if (next && next.text === undefined)
    throw new RunInputError(
      'platformUrl',
      'projectId',
      `path segment ${JSON.stringify(next.raw)} is not valid percent-encoding (write a literal % as %25)`,
    );
  if (next?.text) return next.text;
  throw new RunInputError(
    'platformUrl',
    'projectId',
    `missing: add the query projectId=… or a path …/projects/<projectId>/… to the platform URL${fragmentNote(url, ['projectId', 'project_id'], ['project', 'projects'])}`,
  );
}

/** Reads every value of docs/contract.md §1.1. Throws a RunInputError naming the URL and the field. */
export function readUrls(input: {
  htmlUrl: string;
  platformUrl: string;
  baseUrl?: string;
  companyId?: number | string;
}): UrlFacts {
  const html = parseUrl(input.htmlUrl, 'htmlUrl');
  const platform = parseUrl(input.platformUrl, 'platformUrl');
  const base = input.baseUrl ? parseUrl(input.baseUrl, 'baseUrl') : undefined;
  const topic = query(html, 'topic', 'topicId');
  return {
    reportType: readReportType(html),
    batchDate: readBatchDate(html),
    companyId: readCompanyId(html, input.companyId),
    ...(topic !== undefined ? { topic } : {}),
    projectId: readProjectId(platform),
    host: html.host,
    protocol: html.protocol,
    baseUrl: (base ? base.origin + base.pathname.replace(/\/+$/, '') : platform.origin) || platform.origin,
  };
}

/**
 * Where the session for the report page logs in: base_url when the report is served from its
 * origin, else the report's own origin (e.g. the Profile B portal host).
 */
export function pageLoginBase(htmlUrl: string, baseUrl: string): string {
  const htmlOrigin = new URL(htmlUrl).origin;
  return htmlOrigin === new URL(baseUrl).origin ? baseUrl : htmlOrigin;
}

/**
 * docs/contract.md §2/§3: the configured Profile B host written as the URL parser writes the host of
 * a page with that `protocol` (lowercase, the scheme's default port dropped: `:443` for https,
 * `:80` for http), so `L1_PROFILE_B_HOST=Portal.Example.com:443` is `portal.example.com` on an https
 * page. Undefined when unset or not a plain host[:port] (then it never matches).
 */
export function portalHost(configured: string | undefined, protocol: string): string | undefined {
  const text = configured?.trim();
  if (!text || /[/?#@\\\s]/.test(text)) return undefined;
  try {
    return new URL(`${protocol}//${text}`).host;
  } catch {
    return undefined;
  }
}

/**
 * Why a configured Profile B host (`L1_PROFILE_B_HOST`, `profileB.host`) is not a host[:port] as
 * docs/contract.md §2 asks, saying what to write; undefined when it is one. A URL there
 * (`https://portal.example.com/`) would never match any page: refused at start, with its host.
 */
export function hostSettingProblem(value: string): string | undefined {
  const text = value.trim();
  if (portalHost(text, 'https:') !== undefined) return undefined;
  let host: string | undefined;
  for (const candidate of [text, `https://${text}`]) {
    try {
      const url = new URL(candidate);
      if ((url.protocol === 'https:' || url.protocol === 'http:') && url.host) {
        host = url.host;
        break;
      }
    } catch {
      // not a URL either
    }
  }
  return host && portalHost(host, 'https:') !== undefined
    ? `expected a host[:port], not a URL: write ${host}`
    : 'expected a host[:port], e.g. portal.example.com';
}

/**
 * Whether a report page is on the Profile B portal host: the one comparison of profile recognition
 * (§2) and of where credentials may go (§3). Given a URL, its own scheme decides the default port;
 * given only a host (profile recognition knows no scheme), the default port of https or of http.
 */
export function onPortalHost(page: URL | string, configured: string | undefined): boolean {
  if (page instanceof URL) return page.host !== '' && page.host === portalHost(configured, page.protocol);
  const host = page.toLowerCase();
  return host !== '' && ['https:', 'http:'].some((p) => host === portalHost(configured, p));
}

/**
 * docs/contract.md §3: the origins a run's credentials may be posted to, for its report page: the
 * run's base URL, the report's own origin when it is on the Profile B portal, and L1_LOGIN_ORIGINS.
 * The one list behind where credentials go (`trustedLoginOrigin`) and the start's plain-http
 * warning (`plainHttpOrigins`), so the two can never differ.
 */
export function credentialOrigins(
  htmlUrl: string,
  baseUrl: string,
  portalHostSetting: string | undefined,
  loginOrigins: readonly string[],
): string[] {
  const page = new URL(htmlUrl);
  return [
    new URL(baseUrl).origin,
    ...(onPortalHost(page, portalHostSetting) ? [page.origin] : []),
    ...loginOrigins,
  ];
}
