import { MOBILE } from '../util/phone';
import { maskUrlText } from '../run/url';
import { maskJwts } from './jwt';

/**
 * Query parameters whose values are secrets wherever a URL is printed (spec 1.5; README "Security and
 * limits"). A regular expression's source for one whole parameter name (case is ignored where it is
 * used): a name that holds a secret's word anywhere — a pre-signed URL's `X-Amz-Security-Token`,
 * `X-Amz-Signature`, `X-Amz-Credential`, `X-Goog-Signature`, Aliyun's `security-token` and
 * `auth_key`, `OSSAccessKeyId`, `access_token`, `refreshToken` (the hostile audit of 2026-11-26
 * found the pre-signed ones printed as they were, everywhere) — or one of the short names (`sig`,
 * Azure's; `sign`, `key`, `sid`, …), PHP's session `PHPSESSID` too (`sessid`, which `session`
 * missed: review 59j). Masking more than a secret costs a reader a value; the parts
 * around the word are bounded, so the search stays linear in a long text.
 */
export const SECRET_PARAM_NAMES =
  '[a-z0-9_-]{0,40}?(?:token|signature|credential|secret|passw(?:or)?d|session|sessid|cookie|api[-_]?key|access[-_]?key|auth|ticket)[a-z0-9_-]{0,40}|sign|sig|key|pwd|sid|phone|mobile';

/**
 * The names the redaction guard (./detectors) looks for unmasked values of: whole names, since it
 * reads the suite's outputs and the reports' bundled scripts too, where `&&t.credentials=` is code,
 * not a URL. Every name the suite masks that a real platform or signed URL writes.
 */
export const KNOWN_SECRET_PARAM_NAMES =
  'token|access_token|accesstoken|refresh_token|refreshtoken|id_token|auth|auth_key|authorization|sign|sig|signature|password|passwd|pwd|phone|mobile|session|sessionid|jsessionid|phpsessid|sid|cookie|key|apikey|api_key|secret|ticket|security-token|x-amz-security-token|x-amz-signature|x-amz-credential|x-goog-signature|x-goog-credential|ossaccesskeyid';
const SECRET_PARAMS = new RegExp(`^(${SECRET_PARAM_NAMES})$`, 'i');
const SECRET_IN_TEXT = new RegExp(`([?&#](?:${SECRET_PARAM_NAMES})=)[^&\\s"'#<>]+`, 'gi');
/**
 * A path parameter under a secret-looking name: `;jsessionid=…`, the session a Java servlet
 * container writes into a URL (Tomcat's URL rewriting: `Location: /login;jsessionid=…` on a first
 * visit without a cookie, or a session it cannot read). Its value ends where the path parameter
 * does (`;`, `/`, `?`, `#`) or where the text goes on (`:`, `)`, `,`, `]`: an id has none). A
 * redirect's Location is quoted in a run's reason (lib/platform/client.ts `redirect to …`,
 * lib/platform/login.ts `redirects to …`), and was printed whole: only `?`, `&` and `#` began a
 * masked value (platform-side audit 59g).
 */
const SECRET_PATH_PARAM = new RegExp(`(;(?:${SECRET_PARAM_NAMES})=)[^;/?&\\s"'#<>:),\\]]+`, 'gi');
/** `scheme://user:password@host`: the userinfo of any URL in a text. */
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>]+@/gi;
/**
 * A URL query or fragment value that is a mainland mobile number (the same numbers as MOBILE), also
 * written `+86…`/`86…` or with spaces or dashes: masked whatever its parameter is called
 * (`account=138…`), since a platform names its parameters as it likes.
 */
const PHONE_VALUE = /^(?:\+?86)?1[3-9]\d{9}$/;

/**
 * A mainland mobile number as a page shows it (spec 1.5: never in an output): bare, `+86`/`86`
 * before it, or grouped with spaces or dashes (`138 0013 8000`). Section pictures cover every
 * element whose text holds one (pages/ReportPage.ts); no flag, as Playwright's text locator takes it.
 */
export const PHONE_ON_SCREEN = /(?<![\d.])(?:\+?86[\s-]?)?1[3-9]\d(?:[\s-]?\d){8}(?![\d.])/;

function isPhoneValue(value: string): boolean {
  return PHONE_VALUE.test(value.replace(/[\s-]/g, ''));
}

function maskParams(params: URLSearchParams): void {
  for (const name of [...new Set(params.keys())])
    if (SECRET_PARAMS.test(name) || params.getAll(name).some(isPhoneValue)) params.set(name, '***');
}

/**
 * A URL safe to print: secret-looking and phone-number query (and query-style fragment) values
 * masked, userinfo removed, mobile numbers anywhere masked (`redactText`). A text that is not an
 * absolute URL with a host (`p.example.com /r?token=…`, `admin:pw@host`, which would parse with the
 * scheme `admin:`) is masked as text: everything after its first `?` or `#` and any userinfo-looking
 * `name:secret@` (lib/run/url.ts `maskUrlText`).
 */
export function redactUrl(text: string): string {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (!url || url.host === '') return redactText(maskUrlText(text));
  url.username = '';
  url.password = '';
  maskParams(url.searchParams);
  // A fragment in the query style (`#access_token=…`), as OAuth implicit flows write it.
  if (url.hash.includes('=')) {
    const hash = new URLSearchParams(url.hash.slice(1));
    maskParams(hash);
    url.hash = hash.toString();
  }
  return redactText(url.toString());
}

/** A value masked already (`redactUrl`) and then only the text's punctuation. */
const MASKED_THEN_PUNCTUATION = /^\*\*\*([):,;.\]]*)$/;

/**
 * One `name=value` of SECRET_IN_TEXT masked. A value masked already keeps the punctuation the text
 * put after it: `…&token=***: report page did not load` lost its colon, `(…&token=***) does not
 * match` its parenthesis (reviewer audit of 2026-11-27). Anything else after `***` is masked.
 */
function maskValue(match: string, name: string): string {
  const after = MASKED_THEN_PUNCTUATION.exec(match.slice(name.length));
  return `${name}***${after ? after[1] : ''}`;
}

/**
 * Any text about to leave the suite (a reason, a message, an attachment) with every secret-looking
 * URL query or fragment value masked, the userinfo of every URL (`user:pass@`) and every mobile
 * number masked, wherever they sit in it: Playwright's own errors quote whole URLs
 * (`net::ERR_TOO_MANY_REDIRECTS at …&token=…`), platforms quote accounts.
 */
export function redactText(text: string): string {
  return maskJwts(text)
    .replace(SECRET_IN_TEXT, maskValue)
    .replace(SECRET_PATH_PARAM, maskValue)
    .replace(USERINFO, '$1***@')
    .replace(MOBILE, '1**********');
}
