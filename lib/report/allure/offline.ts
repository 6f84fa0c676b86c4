/**
 * A single-file Allure report that calls nobody (README.md § Security and limits, case 14).
 *
 * Allure 3's awesome plugin hard-codes a Google Analytics tag (`googletagmanager.com`, allure3
 * issue #476) and its app bundle names other hosts (the Playwright trace viewer at
 * `trace.playwright.dev`, which would receive a trace by `postMessage`; the "Powered by" link).
 * In single-file mode the app and every data file are base64 inside the HTML, so a plain text
 * search of the file sees neither. `makeOffline` removes or neutralises every URL to an external
 * host, in the HTML and inside every embedded payload; `findExternalUrls` decodes the same
 * payloads and lists what is left, so a report is only kept when the list is empty.
 *
 * Neutralised how depends on who reads the URL. The report's own HTML and app bundle may hand it
 * to `new URL()`: there it becomes {@link REMOVED_URL}, which parses and goes nowhere. In the data
 * (results, attachments, names, search index) it is read by a person, often as a value the check
 * compared (a source title that is its page's URL): there it is defanged, the common form for a URL
 * shown but not to be followed, `https://www.zhihu.com/question/1` as
 * `hxxps://www[.]zhihu[.]com/question/1`. Host and path stay readable; no browser, link
 * renderer (the app links only `http:`/`https:`) or this file's check takes it for a URL, and no
 * text turns `www[.]zhihu[.]com` into a host name. So a value reads as the terminal and JUnit show
 * it, but for `hxxp` and the brackets.
 *
 * External means: not loopback and not one of `allowedHosts` (the hosts of the configured runs:
 * a link to the company's own report page is not a third party). XML namespace identifiers
 * (`http://www.w3.org/2000/svg` …) are names, never fetched, and the app needs them verbatim.
 */
import { isLoopbackHost } from '../../util/host';

export interface OfflineOptions {
  /** Hosts (lower case, no port) that may appear besides loopback: the configured runs' hosts. */
  allowedHosts?: readonly string[];
}

export interface ExternalUrl {
  /** Where it was found: `html`, `data:text/javascript`, or the embedded file's name. */
  where: string;
  url: string;
  host: string;
}

/** What replaces `scheme://host[:port]` of an external URL in the app: inert, names no host. */
export const REMOVED_URL = 'about:blank#external-url-removed';

/** XML namespace identifiers: never fetched, required verbatim by SVG/MathML code. */
const NAMESPACE_URLS = new Set([
  'http://www.w3.org/2000/svg',
  'http://www.w3.org/1999/xlink',
  'http://www.w3.org/1999/xhtml',
  'http://www.w3.org/1998/Math/MathML',
  'http://www.w3.org/XML/1998/namespace',
  'http://www.w3.org/2000/xmlns/',
]);

/** `://` in plain (`https://`), JSON-escaped (`https:\/\/`) or percent-encoded (`https%3A%2F%2F`) form. */
const SEPARATOR = String.raw`(?::\/\/|:\\\/\\\/|%3A%2F%2F)`;
/**
 * Not where another URL starts: no part of a URL runs over the next one, however they are glued
 * (`…」,「https://…`, `a,https://…`, `\nhttps://…` in JSON, `%2Chttps%3A%2F%2F…`). The scheme has
 * no word boundary before it for the same reason: `\nhttps://` is a URL once the JSON is read.
 */
const NOT_NEXT = String.raw`(?!https?${SEPARATOR})`;

/** A percent-encoded byte of a non-ASCII character: part of a host (`%E4%B8%AD.example`). */
const NON_ASCII = '%[89a-f][0-9a-f]';

// scheme, `://`, userinfo (`user@`, `user%40`: the host is after it), host (a name, non-ASCII or
// percent-encoded non-ASCII too, or [IPv6]), port, then the rest up to a space, a quote or the
// next URL.
const URL_PATTERN = new RegExp(
  [
    String.raw`(https?)(${SEPARATOR})`,
    String.raw`((?:${NOT_NEXT}(?:[^\s"'\`<>()[\]{}\\/?#%|^@]|%(?!2f|3f|23|40)[0-9a-f]{2}))*(?:@|%40))?`,
    String.raw`(\[[0-9a-f:.]+\]|(?:[a-z0-9\u0080-\uffff]|${NON_ASCII})(?:${NOT_NEXT}(?:[^\s"'\`<>()[\]{}\\/?#:%,;|^@]|${NON_ASCII}))*)`,
    String.raw`(:\d+)?`,
    String.raw`((?:${NOT_NEXT}(?:[^\s"'\`<>()\\]|\\\/))*)`,
  ].join(''),
  'gi',
);

// A protocol-relative reference (`src="//host/x"`, `url(//host/x)`) loads from a host too, also
// as JSON writes it (`src=\"//host/x\"`, `src=\"\/\/host`): the HTML an embedded result holds
// (a description markdown made into HTML) is such JSON.
const RELATIVE_PATTERN =
  /(\b(?:src|href|srcset|action|poster|data)\s*=\s*(?:\\?["'])?|\burl\(\s*(?:\\?["'])?)(?:\/\/|\\\/\\\/)([a-z0-9][^\s"'`<>()[\]{}\\/?#:%,;|^]*)/gi;

const BINARY_NAME = /\.(png|jpe?g|gif|webp|bmp|ico|zip|gz|webm|mp4|woff2?|ttf|otf|pdf)$/i;
const TEXT_MIME = /^(text\/|application\/(javascript|json|xml|x-javascript)|image\/svg\+xml)/i;

export { isLoopbackHost };

/**
 * A host name as allowed hosts are compared: lowercase, without IPv6 brackets or a final dot. The
 * report writes `[2001:db8::1]`, runHosts and L1_REPORT_ALLOWED_HOSTS may write `2001:db8::1`, and
 * the setting `cdn.example.com.`: compared as written, the setting's check took them and the report
 * step still deleted the report for naming them.
 */
function plainHost(host: string): string {
  return host
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
}

function allowed(scheme: string, host: string, rest: string, options: OfflineOptions): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  if (!h || isLoopbackHost(h)) return true;
  if ((options.allowedHosts ?? []).some((a) => plainHost(a) === plainHost(h))) return true;
  const plain = `${scheme.toLowerCase()}://${h}${rest.replace(/\\\//g, '/').replace(/%2F/gi, '/')}`;
  return [...NAMESPACE_URLS].some(
    (ns) => plain === ns || (plain.startsWith(ns) && !/^[\w.-]/.test(plain.slice(ns.length))),
  );
}

/** One URL of {@link URL_PATTERN}: its parts as matched. */
interface UrlMatch {
  url: string;
  scheme: string;
  separator: string;
  userinfo: string;
  host: string;
  port: string;
  rest: string;
}

function urls(text: string): IterableIterator<RegExpMatchArray> {
  return text.matchAll(URL_PATTERN);
}

function parts(m: readonly (string | undefined)[]): UrlMatch {
  const [url = '', scheme = '', separator = '', userinfo = '', host = '', port = '', rest = ''] = m;
  return { url, scheme, separator, userinfo, host, port, rest };
}

function scanText(text: string, where: string, options: OfflineOptions, out: ExternalUrl[]): void {
  for (const m of urls(text)) {
    const { url, scheme, host, rest } = parts(m);
    if (!allowed(scheme, host, rest, options))
      out.push({ where, url: url.slice(0, 200), host: host.toLowerCase() });
  }
  for (const m of text.matchAll(RELATIVE_PATTERN)) {
    const [url, , host = ''] = m;
    if (!allowed('https', host, '', options))
      out.push({ where, url: url.slice(0, 200), host: host.toLowerCase() });
  }
}

/** A host's dots bracketed (`www[.]zhihu[.]com`): no link, no host name any text turns into one. */
function defangHost(host: string): string {
  return host.replace(/\./g, '[.]');
}

/**
 * `https://www.zhihu.com/question/1` as `hxxps://www[.]zhihu[.]com/question/1`: a scheme no
 * browser, link or this file's check knows, the dots of the host bracketed, everything else as it
 * was (userinfo, port, path, query, and the separator in its own spelling, so JSON stays JSON).
 */
function defanged(u: UrlMatch): string {
  const scheme = u.scheme.replace(/t/g, 'x').replace(/T/g, 'X');
  return `${scheme}${u.separator}${u.userinfo}${defangHost(u.host)}${u.port}${u.rest}`;
}

/**
 * How an external URL is made inert: `data` (what a reader reads: results, attachments, names) is
 * defanged, host and path still there to read; `app` (the report's own HTML and scripts, which may
 * hand a URL to `new URL()`) gets {@link REMOVED_URL}, a URL that parses and goes nowhere.
 */
type Form = 'data' | 'app';

function neutralise(text: string, options: OfflineOptions, form: Form): string {
  return text
    .replace(URL_PATTERN, (...m: string[]) => {
      const u = parts(m);
      if (allowed(u.scheme, u.host, u.rest, options)) return u.url;
      return form === 'data' ? defanged(u) : `${REMOVED_URL}${u.rest}`;
    })
    .replace(RELATIVE_PATTERN, (url: string, lead: string, host: string) => {
      if (allowed('https', host, '', options)) return url;
      return form === 'data' ? `${lead}${defangHost(host)}` : `${lead}${REMOVED_URL}`;
    });
}

function decodeBase64(b64: string): string {
  return Buffer.from(b64, 'base64').toString('utf8');
}

function encodeBase64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}

// `data:<mime>;base64,<payload>` (the app bundle, icons) and `d("<name>","<payload>")` (every
// data file of the single-file report: widgets, test results, attachments).
const DATA_URL = /data:([\w.+-]+\/[\w.+-]+)(?:;[\w-]+=[\w-]+)*;base64,([A-Za-z0-9+/=]+)/g;
const DATA_FILE = /\bd\("([^"\\]{1,500})","([A-Za-z0-9+/=]*)"\)/g;

/** Every URL to an external host in the report: in the HTML and in every embedded payload. */
export function findExternalUrls(html: string, options: OfflineOptions = {}): ExternalUrl[] {
  const out: ExternalUrl[] = [];
  scanText(html, 'html', options, out);
  for (const [, mime = '', b64 = ''] of html.matchAll(DATA_URL)) {
    if (TEXT_MIME.test(mime)) scanText(decodeBase64(b64), `data:${mime}`, options, out);
  }
  for (const [, name = '', b64 = ''] of html.matchAll(DATA_FILE)) {
    if (!BINARY_NAME.test(name)) scanText(decodeBase64(b64), name, options, out);
  }
  return out;
}

/** The hosts a report names, for the failure message: `host (n×, first in where)`. */
export function describeExternalUrls(found: readonly ExternalUrl[], max = 10): string {
  const byHost = new Map<string, { count: number; first: ExternalUrl }>();
  for (const f of found) {
    const seen = byHost.get(f.host);
    if (seen) seen.count += 1;
    else byHost.set(f.host, { count: 1, first: f });
  }
  const lines = [...byHost.entries()]
    .slice(0, max)
    .map(([host, { count, first }]) => `  ${host} (${count}×, first in ${first.where}: ${first.url})`);
  if (byHost.size > max) lines.push(`  … and ${byHost.size - max} more host(s)`);
  return lines.join('\n');
}

const ANALYTICS = /googletagmanager|google-analytics|gtag\s*\(|\bdataLayer\b/;

/**
 * The report without calls out: analytics scripts removed, every element that would load from an
 * external host removed, every other external URL replaced by {@link REMOVED_URL} in the HTML and
 * the app bundle, defanged in the embedded data files. `removed` says what was done, for the log.
 */
export function makeOffline(html: string, options: OfflineOptions = {}): { html: string; removed: string[] } {
  const removed: string[] = [];
  const external = (tag: string): string | undefined => {
    const found: ExternalUrl[] = [];
    scanText(tag, 'tag', options, found);
    return found[0]?.host;
  };

  // 1. Elements that load something: <script src>, <link href>, <img|iframe|… src>.
  let out = html.replace(
    /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi,
    (whole: string, attrs: string, body: string) => {
      const host =
        /\bsrc\s*=/i.test(attrs) && !/\bsrc\s*=\s*["']?data:/i.test(attrs) ? external(attrs) : undefined;
      if (host) {
        removed.push(`<script src> from ${host}`);
        return '';
      }
      if (!/\bsrc\s*=/i.test(attrs) && ANALYTICS.test(body)) {
        removed.push('inline analytics script');
        return '';
      }
      return whole;
    },
  );
  out = out.replace(/<(link|img|source|embed|track)\b[^>]*>/gi, (tag: string, name: string) => {
    const attrs = tag.replace(/\s(xmlns(:\w+)?)\s*=\s*("[^"]*"|'[^']*')/gi, '');
    const host =
      /\b(href|src|srcset)\s*=/i.test(attrs) && !/\b(href|src)\s*=\s*["']?data:/i.test(attrs)
        ? external(attrs)
        : undefined;
    if (!host) return tag;
    removed.push(`<${name.toLowerCase()}> from ${host}`);
    return '';
  });
  out = out.replace(
    /<(iframe|audio|video|object)\b[^>]*>[\s\S]*?<\/\1\s*>/gi,
    (tag: string, name: string) => {
      const host = external(tag);
      if (!host) return tag;
      removed.push(`<${name.toLowerCase()}> from ${host}`);
      return '';
    },
  );

  // 2. Embedded payloads: decoded, neutralised, encoded again (only when something changed).
  const rewrite = (where: string, b64: string, form: Form): string => {
    const text = decodeBase64(b64);
    const found: ExternalUrl[] = [];
    scanText(text, where, options, found);
    if (!found.length) return b64;
    removed.push(`${found.length} URL(s) in ${where} (${[...new Set(found.map((f) => f.host))].join(', ')})`);
    return encodeBase64(neutralise(text, options, form));
  };
  out = out.replace(DATA_URL, (whole: string, mime: string, b64: string) =>
    TEXT_MIME.test(mime) ? whole.replace(b64, rewrite(`data:${mime}`, b64, 'app')) : whole,
  );
  out = out.replace(DATA_FILE, (whole: string, name: string, b64: string) =>
    BINARY_NAME.test(name) ? whole : `d("${name}","${rewrite(name, b64, 'data')}")`,
  );

  // 3. What is left in the HTML itself (the report options' CI links, for example).
  const left: ExternalUrl[] = [];
  scanText(out, 'html', options, left);
  if (left.length) {
    removed.push(`${left.length} URL(s) in the HTML (${[...new Set(left.map((f) => f.host))].join(', ')})`);
    out = neutralise(out, options, 'app');
  }
  return { html: out, removed };
}

/** The hosts of the configured runs (report and platform URLs of the verdict files): allowed in links. */
export function runHosts(urls: readonly (string | null | undefined)[]): string[] {
  const hosts = new Set<string>();
  for (const u of urls) {
    if (!u) continue;
    try {
      const host = new URL(u).hostname.toLowerCase();
      if (host) hosts.add(host.replace(/^\[|\]$/g, ''));
    } catch {
      // not a URL (a file path): no host
    }
  }
  return [...hosts];
}
