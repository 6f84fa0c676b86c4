import fs from 'node:fs';
import path from 'node:path';
import { collectSecrets, prepareSecret, SHORT_SECRET } from './secrets';
import { redactText, SECRET_PARAM_NAMES } from './url';
import { escapeRegExp } from '../util/escape';

/** Values shorter than this are never masked as text (they would hit ordinary words and numbers). */
const MIN_MASKED = 4;
/** Deeper than this, a value of the stored inputs is replaced, not walked (a hostile nesting). */
const MAX_DEPTH = 64;
const DEEPER = `[nested deeper than ${MAX_DEPTH} levels: not kept]`;
const NOTHING_KEPT: ReadonlySet<string> = new Set();
const SECRET_PARAM = new RegExp(`^(${SECRET_PARAM_NAMES})$`, 'i');
/**
 * What `redactText` can change at all: a `key=value`, a `user@`, eleven digits in a row, a mobile
 * number grouped 3-4-4 (`138 0013 8000`, lib/util/phone.ts MOBILE), a JSON web token (`eyJ`, which
 * needs no `=`). The leak audit of 2026-11-28 found the last two skipped: the console (the CI log,
 * which the guard never sees) and a judged run's strings kept `1xx xxxx xxxx` of a number in no
 * registry and a token, which `redactText` masks.
 */
const MAY_HOLD_URL_SECRET = /[=@]|\d{11}|\d(?:[^\S\r\n]|-)\d{4}(?:[^\S\r\n]|-)\d{4}|eyJ/;

/**
 * Masks known secrets in any text before it leaves the suite (README.md § Security and limits,
 * docs/contract.md §3 "never appear in any test output"): the phones and passwords of the
 * credentials registry (and the demo's), the session cookie values of the invocation's storage
 * states, the secret-looking query values and userinfo of the runs' own URLs (`?token=…`), then
 * every secret-looking URL part (`redactText`). Each value is also masked lowercased: a page that
 * writes a token into a host name (`http://<token>.evil.example/`, which the box then names in the
 * run's notes) gets it back lowercased by the URL parser. Used for the console (the CI log, which
 * the guard never sees), every run's reason and the whole judged run (`maskDeep`), so a platform
 * that echoes a phone, a password or a session cookie inside its data is masked at the source.
 *
 * Storage states appear as runs log in: they are read again when their folder changes, and a value
 * once known is never forgotten: the invocation's teardown removes its `auth/` folder before the
 * list reporter prints the failures, and those lines must still be masked.
 */
export class SecretMask {
  private readonly known = new Set<string>();
  /** Every form of every value in one pattern, longest first: one pass over a text. */
  private pattern: RegExp | undefined;
  private stamp = '';

  constructor(
    private readonly root: string,
    private readonly options: { env?: NodeJS.ProcessEnv; authDirs?: string[]; urls?: string[] } = {},
  ) {
    for (const url of options.urls ?? []) for (const value of urlSecrets(url)) this.known.add(value);
  }

  private refresh(): void {
    const dirs = this.options.authDirs ?? [];
    const stamp = dirs.map((d) => statStamp(d)).join('|');
    if (stamp === this.stamp && this.pattern) return;
    this.stamp = stamp;
    for (const s of collectSecrets(this.root, this.options.env ?? process.env, [])) this.known.add(s.value);
    for (const dir of dirs) for (const value of cookieValues(dir)) this.known.add(value);
    // Every text form the guard looks for (URL-, form-, JSON- and HTML-escaped, a phone spaced or
    // dashed: lib/redaction/secrets.ts prepareSecret), and the value lowercased. As in the guard, a
    // value under SHORT_SECRET characters is masked only between non-alphanumerics (`?sign=2025`
    // must not turn the batch date 2025-11-17 into ***-11-17).
    const forms = new Map<string, boolean>();
    for (const value of this.known) {
      const prepared = prepareSecret({ value, label: '', detector: 'registry' });
      const texts = prepared.forms.filter((f) => !f.base64).map((f) => f.bytes.toString('utf8'));
      for (const form of [...texts, value.toLowerCase()])
        if (form.length >= MIN_MASKED) forms.set(form, value.length < SHORT_SECRET);
    }
    // Longest first: a secret that contains another is masked whole.
    const values = [...forms.keys()].sort((a, b) => b.length - a.length);
    const alternative = (v: string) => {
      const escaped = escapeRegExp(v);
      return forms.get(v) ? `(?<![A-Za-z0-9])${escaped}(?![A-Za-z0-9])` : escaped;
    };
    this.pattern = values.length ? new RegExp(values.map(alternative).join('|'), 'g') : undefined;
  }

  private maskKnown(text: string): string {
    const out = this.pattern && text.length >= MIN_MASKED ? text.replace(this.pattern, '***') : text;
    return MAY_HOLD_URL_SECRET.test(out) ? redactText(out) : out;
  }

  readonly mask = (text: string): string => {
    this.refresh();
    return this.maskKnown(text);
  };

  /**
   * A copy of a JSON value with every string, object key included, masked: the judged run and its
   * inputs before they are stored, so every item message, note, step value and attachment read
   * from them is masked whatever the platform put where (its rules ran on the values as they came).
   * The values under a key of `keep` are copied as they are: what the suite itself wrote and a
   * schema checks (a verdict, a status, the run's facts), which a short password must not turn
   * into `***`.
   */
  readonly maskDeep = <T>(value: T, keep: ReadonlySet<string> = NOTHING_KEPT): T => {
    this.refresh();
    // Depth-bounded: a field the schemas keep but do not read may nest as deep as an answer allows.
    // A value's strings repeat (keys, names, labels): each distinct one is masked once per call.
    const seen = new Map<string, string>();
    const text = (t: string): string => {
      let masked = seen.get(t);
      if (masked === undefined) seen.set(t, (masked = this.maskKnown(t)));
      return masked;
    };
    const walk = (v: unknown, depth: number): unknown => {
      if (typeof v === 'string') return text(v);
      if (!v || typeof v !== 'object') return v;
      if (depth >= MAX_DEPTH) return DEEPER;
      if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1));
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        const kept = keep.has(k);
        const key = kept ? k : text(k);
        const value = kept ? x : walk(x, depth + 1);
        // A key `__proto__` stays a key of the copy, not its prototype.
        if (key === '__proto__')
          Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
        else out[key] = value;
      }
      return out;
    };
    return walk(value, 0) as T;
  };
}

/** The URLs of the runs, whose secret parts the mask learns (`SecretMask` option `urls`). */
export function runUrls(runs: readonly { input: { htmlUrl?: unknown; platformUrl?: unknown } }[]): string[] {
  return runs
    .flatMap((r) => [r.input.htmlUrl, r.input.platformUrl])
    .filter((u): u is string => typeof u === 'string');
}

/** The secret parts of a run's URL: secret-looking query and fragment values, userinfo. */
function urlSecrets(text: string): string[] {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return [];
  }
  const out = [decoded(url.username), decoded(url.password)];
  const params = [
    url.searchParams,
    ...(url.hash.includes('=') ? [new URLSearchParams(url.hash.slice(1))] : []),
  ];
  for (const p of params) for (const [name, value] of p) if (SECRET_PARAM.test(name)) out.push(value);
  // A URL value under SHORT_SECRET characters (`sign=2025`, `key=html`) is no secret worth masking
  // in data: its URL is printed redacted all the same (`redactUrl`).
  return out.filter((v) => v.length >= SHORT_SECRET);
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function statStamp(dir: string): string {
  try {
    return String(fs.statSync(dir).mtimeMs);
  } catch {
    return '-';
  }
}

/** Session cookie values of the storage states in `dir` (at least 8 characters). */
function cookieValues(dir: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    try {
      const state = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as {
        cookies?: { value?: unknown; httpOnly?: unknown }[];
      };
      // A cookie the login kept readable to pages is not a secret (lib/platform/login.ts keptCookies).
      return (Array.isArray(state.cookies) ? state.cookies : [])
        .filter((c) => c.httpOnly !== false)
        .map((c) => c.value)
        .filter((v): v is string => typeof v === 'string' && v.length >= 8);
    } catch {
      return [];
    }
  });
}
