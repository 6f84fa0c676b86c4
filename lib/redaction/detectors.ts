import { sha256 } from '../util/hash';
import { maskPhone, type Detector, type Match } from './findings';
import type { SecretSearch } from './secrets';
import { MIN_COOKIE_VALUE } from './seen-cookies';
import { charTable, jwtMatches } from './jwt';
import { KNOWN_SECRET_PARAM_NAMES } from './url';

/**
 * The detectors: the known secrets (./secrets), session cookie values whose hashes the suite
 * recorded (./seen-cookies), and patterns that need no list: mainland China mobile numbers, bearer
 * tokens, JSON web tokens, Cookie / Set-Cookie headers, JSON secret keys, secret-looking URL query
 * values.
 */

/** Browsers cap a cookie at 4096 bytes: longer tokens are never a whole cookie value. */
const MAX_COOKIE_CANDIDATE = 4096;

/** Where two matches overlap, only the most specific one (lowest rank) is reported. */
const RANK: Record<Detector, number> = {
  registry: 0,
  'auth-cookie': 0,
  'cookie-hash': 1,
  'json-secret-key': 2,
  'cookie-header': 2,
  bearer: 2,
  jwt: 3,
  'phone-pattern': 3,
  'secret-query': 2,
};

/**
 * A separator of a grouped mobile number as MOBILE takes it (`[^\S\r\n]` or a dash), in the latin1
 * reading of UTF-8 the guard scans: ASCII space, tab, vertical tab, form feed and dash, and the
 * Unicode spaces' bytes (no-break, ideographic, narrow, en to hair, the line and paragraph
 * separators, BOM), as a Chinese page groups a number with U+3000 or U+00A0.
 */
const PHONE_SEP =
  '(?:[ \\t\\v\\f-]|\\xC2\\xA0|\\xE1\\x9A\\x80|\\xE2\\x80[\\x80-\\x8A\\xA8\\xA9\\xAF]|\\xE2\\x81\\x9F|\\xE3\\x80\\x80|\\xEF\\xBB\\xBF)';
/**
 * A mainland mobile number in every form the suite masks (lib/util/phone.ts MOBILE): bare, with
 * `+86`/`0086`/`86` before it, or grouped 3-4-4 with one separator twice (`138 0013 8000`,
 * `+86 138-0013-8000`, or U+3000 between the groups). The audit of 2026-11-28 found only the bare
 * form looked for: a number in no registry written `+8613800138000` or `138 0013 8000` in an
 * output that skipped masking passed the night. Stricter than MOBILE at its edges (no letter
 * against it), as base64 and bundled scripts are scanned too.
 */
const PHONE = new RegExp(
  `(?<![0-9A-Za-z]|[0-9]\\.)(?:(?:\\+|00)?86${PHONE_SEP}?)?1[3-9][0-9]{9}(?![0-9A-Za-z]|\\.[0-9])` +
    `|(?<![0-9A-Za-z.])(?:(?:\\+|00)?86${PHONE_SEP})?1[3-9][0-9](${PHONE_SEP})[0-9]{4}\\1[0-9]{4}(?![0-9A-Za-z]|\\.[0-9])`,
  'g',
);
const BEARER = /\bBearer\s+[A-Za-z0-9._~+/-]{12,}=*/gi;
/**
 * A URL query value under a secret-looking name (./url masks these as `***`), its `&` also as HTML
 * writes it in an attribute or a page copy (`&amp;`, `&#38;`, `&#x26;`, and with zeros before the
 * number: WordPress writes `&#038;`): only `?` and `&` began one, so a token after `&amp;` in an
 * HTML output was no finding (review 59j), nor one after `&#038;` (review 59n).
 */
const SECRET_QUERY = new RegExp(
  `(?:[?&]|&(?:amp|#0*38|#x0*26);)(${KNOWN_SECRET_PARAM_NAMES})=([^&\\s"'#<>]{6,})`,
  'gi',
);
/**
 * The servlet session path parameter `;jsessionid=…` (./url `SECRET_PATH_PARAM`), and PHP's
 * `;phpsessid=` (review 59j: a near variant found by no detector): a session id, the
 * characters of an id with a digit among them (Tomcat's 32 hex digits, `.node1` after them; Jetty's
 * `node0…`), not followed by a call or an index; no other name after `;`, which bundled scripts
 * write as code (`…;key=e.key`). Bundled code assigns a variable of that name too
 * (`;jsessionid=e.jsessionid}`, `;jsessionid=getJsessionId(document.cookie)`), which the first
 * pattern, every character up to a `;`, `/`, `?` or quote, took for a session (review 59j).
 */
const SECRET_PATH_PARAM =
  /;(jsessionid|phpsessid)=((?=[A-Za-z0-9._~%+-]*[0-9])[A-Za-z0-9._~%+-]{6,})(?![A-Za-z0-9._~%+([$-])/gi;
/**
 * A value the suite masked (`redactText`), as each output writes the mask, then no id character:
 * the mask is taken whole (a lookahead does not backtrack), so `***abc123` is no masked value.
 */
const MASKED_VALUE = /^(?=(\*+|(?:\\+\*)+|%2A%2A%2A))\1(?![A-Za-z0-9._~%+-])/i;
const COOKIE_HEADER = /\b((?:set-)?cookie)\s*:\s*[^=;,\s"'<>]{1,128}=([^;,\s"'<>\\]{12,})/gi;
/** The same header in a JSON header list: {"name":"cookie","value":"sid=…"} (traces, HAR). */
const COOKIE_HEADER_JSON =
  /"name"\s*:\s*"((?:set-)?cookie)"\s*,\s*"value"\s*:\s*"[^"=;,\s]{1,128}=([^";,\s\\]{12,})/gi;
const SECRET_KEY = /"(password|passwd|token|access_token)"\s*:\s*"((?:[^"\\\r\n]|\\.)+)"/gi;
/** The same key in JSON kept as a string inside JSON (request bodies in traces, logs). */
const SECRET_KEY_ESCAPED =
  /\\"(password|passwd|token|access_token)\\"\s*:\s*\\"((?:[^"\\\r\n]|\\[^"])+)\\"/gi;
/**
 * Characters of a token that may hold a cookie value, `[A-Za-z0-9_.~+/=%-]` (base64, base64url, hex,
 * URL-encoded): 1, or 3 for the separators of `cookieCandidates` (".", "=", "%").
 */
const TOKEN = charTable(/[A-Za-z0-9_.~+/=%-]/);
const SEPARATOR = 2;
for (const c of '.=%') TOKEN[c.charCodeAt(0)]! |= SEPARATOR;

/**
 * Each run of 12 or more token characters, by a linear scan (a regular expression over the
 * megabytes of base64 a single-file report embeds overflowed V8's stack), with whether it holds a
 * separator.
 */
function eachToken(text: string, each: (start: number, end: number, separated: boolean) => void): void {
  const n = text.length;
  for (let i = 0; i < n;) {
    if (!TOKEN[text.charCodeAt(i)]) {
      i++;
      continue;
    }
    let j = i;
    let seen = 0;
    for (let k; j < n && (k = TOKEN[text.charCodeAt(j)]); j++) seen |= k;
    if (j - i >= 12) each(i, j, (seen & SEPARATOR) !== 0);
    i = j;
  }
}

/** A masked or placeholder value is not a leak: "***", "[REDACTED]", "<hidden>". */
function isPlaceholder(value: string): boolean {
  const v = value.replace(/\\/g, '').trim();
  return (
    /^[*•·xX.-]+$/.test(v) ||
    /^[[<({]?\s*(redacted|masked|hidden|omitted|removed|secret|filtered)\s*[\]>)}]?$/i.test(v)
  );
}

/** The known secrets and recorded cookie hashes the detectors look for. */
export interface Known {
  secrets: SecretSearch;
  hashes: Set<string>;
  /** Candidate → seen, so a token repeated across files is hashed once. */
  hashMemo: Map<string, boolean>;
}

/**
 * Every secret in a text (`text` is `buf` read as latin1, so offsets agree): known values in any
 * encoding, recorded cookie values inside tokens, and the patterns; where two overlap, the most
 * specific one.
 */
export function detect(buf: Buffer, text: string, st: Known): Match[] {
  const matches: Match[] = [];
  st.secrets.find(buf, (i, s, form) => {
    const n = form.bytes.length;
    if (s.short && (isAlnum(buf[i - 1]) || isAlnum(buf[i + n]))) return;
    matches.push({
      start: i,
      end: i + n,
      detector: s.detector,
      what: `${s.label}${form.suffix}`,
      base64: form.base64,
    });
  });
  if (st.hashes.size) {
    eachToken(text, (index, end, separated) => {
      // Without a separator a token is its one candidate, and no cookie is longer than a browser keeps.
      if (!separated && end - index > MAX_COOKIE_CANDIDATE) return;
      const hit = cookieCandidates(text.slice(index, end)).find((c) => isSeenCookie(c.text, st));
      if (hit) {
        const start = index + hit.start;
        matches.push({
          start,
          end: start + hit.text.length,
          detector: 'cookie-hash',
          what: `session cookie value (seen by the suite)${hit.decoded ? ', URL-encoded' : ''}`,
        });
      }
    });
  }
  for (const m of text.matchAll(PHONE)) {
    matches.push({
      start: m.index,
      end: m.index + m[0].length,
      detector: 'phone-pattern',
      what: 'phone number (mainland China mobile pattern)',
      preview: maskPhone(m[0].replace(/[^0-9]/g, '').slice(-11)),
    });
  }
  // A path parameter is said as one (`;jsessionid`), not as a query a reader would look for after `?`.
  const urlParts = [
    ...[...text.matchAll(SECRET_QUERY)].map((m) => ({ m, what: `URL query "${m[1]}" with a value` })),
    ...[...text.matchAll(SECRET_PATH_PARAM)].map((m) => ({
      m,
      what: `URL path parameter ";${m[1]}" with a value`,
    })),
  ];
  for (const { m, what } of urlParts) {
    // Masked (`***`), also as a URL encodes it and as summary.md escapes it for Markdown (`\*\*\*`,
    // in JSON `\\*\\*\\*`), whatever follows that no id goes on with: a JSON escape (`***\n`,
    // a masked URL ending a line of a message) was taken into the value (review 59n).
    if (MASKED_VALUE.test(m[2]!)) continue;
    matches.push({ start: m.index, end: m.index + m[0].length, detector: 'secret-query', what });
  }
  for (const m of text.matchAll(BEARER)) {
    matches.push({ start: m.index, end: m.index + m[0].length, detector: 'bearer', what: 'bearer token' });
  }
  for (const m of jwtMatches(text)) {
    matches.push({ start: m.start, end: m.end, detector: 'jwt', what: 'JSON web token' });
  }
  for (const re of [COOKIE_HEADER, COOKIE_HEADER_JSON]) {
    for (const m of text.matchAll(re)) {
      if (isPlaceholder(m[2]!)) continue;
      const header = m[1]!.toLowerCase() === 'cookie' ? 'Cookie' : 'Set-Cookie';
      matches.push({
        start: m.index,
        end: m.index + m[0].length,
        detector: 'cookie-header',
        what: `${header} header with a cookie value`,
      });
    }
  }
  for (const re of [SECRET_KEY, SECRET_KEY_ESCAPED]) {
    for (const m of text.matchAll(re)) {
      if (isPlaceholder(m[2]!)) continue;
      matches.push({
        start: m.index,
        end: m.index + m[0].length,
        detector: 'json-secret-key',
        what: `JSON "${m[1]}" with a value`,
      });
    }
  }
  return keepMostSpecific(matches);
}

function isAlnum(byte: number | undefined): boolean {
  return (
    byte !== undefined &&
    ((byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a))
  );
}

/** Drops a match overlapping a more specific one (a registry phone is not also a "phone pattern"). */
function keepMostSpecific(matches: Match[]): Match[] {
  const sorted = [...matches].sort((a, b) => RANK[a.detector] - RANK[b.detector] || a.start - b.start);
  const kept: Match[] = [];
  for (const m of sorted) {
    const shadowed = kept.some(
      (k) => RANK[k.detector] < RANK[m.detector] && k.start < m.end && m.start < k.end,
    );
    if (!shadowed) kept.push(m);
  }
  return kept.sort((a, b) => a.start - b.start);
}

interface Candidate {
  text: string;
  start: number;
  decoded?: boolean;
}

/**
 * Substrings of a token that may be a whole cookie value: the token, and every run between its
 * separators (".", "=", "%"), so `sid=VALUE`, `VALUE==` and `a.b.c` all yield the value.
 */
function cookieCandidates(token: string): Candidate[] {
  const out: Candidate[] = [];
  const add = (start: number, end: number) => {
    const len = end - start;
    if (len >= MIN_COOKIE_VALUE && len <= MAX_COOKIE_CANDIDATE)
      out.push({ text: token.slice(start, end), start });
  };
  const seps: number[] = [];
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i);
    if (c === 0x2e || c === 0x3d || c === 0x25) seps.push(i);
  }
  if (seps.length === 0 || seps.length > 16) {
    add(0, token.length);
    for (let k = 0, from = 0; k <= seps.length; k++) {
      const to = k < seps.length ? seps[k]! : token.length;
      if (seps.length) add(from, to);
      from = to + 1;
    }
  } else {
    const starts = [0, ...seps.map((i) => i + 1)];
    const ends = [...seps, token.length];
    // every run from a boundary to a boundary: "sid=VALUE==" yields "VALUE==" and "VALUE"
    for (const a of starts) for (const b of ends) if (b > a) add(a, b);
  }
  if (token.includes('%') && token.length <= MAX_COOKIE_CANDIDATE) {
    try {
      const decoded = decodeURIComponent(token);
      if (decoded !== token) out.push({ text: decoded, start: 0, decoded: true });
    } catch {
      // not URL-encoded
    }
  }
  return out;
}

function isSeenCookie(candidate: string, st: Known): boolean {
  let hit = st.hashMemo.get(candidate);
  if (hit === undefined) {
    hit = st.hashes.has(sha256(candidate));
    if (st.hashMemo.size > 200_000) st.hashMemo.clear();
    st.hashMemo.set(candidate, hit);
  }
  return hit;
}
