/**
 * Query parameters whose values are secrets wherever a URL is printed (spec 1.5; README "Security and
 * limits"); the redaction guard looks for unmasked ones too (./detectors).
 */
export const SECRET_PARAM_NAMES =
  'token|access_token|accesstoken|refresh_token|id_token|auth|authorization|sign|signature|password|passwd|pwd|phone|mobile|session|sessionid|sid|cookie|key|apikey|api_key|secret|ticket';
const SECRET_PARAMS = new RegExp(`^(${SECRET_PARAM_NAMES})$`, 'i');
const SECRET_IN_TEXT = new RegExp(`([?&#](?:${SECRET_PARAM_NAMES})=)[^&\\s"'#<>]+`, 'gi');
/** `scheme://user:password@host`: the userinfo of any URL in a text. */
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>]+@/gi;
/** A mainland China mobile number standing alone (spec 1.5: never in an output). */
const PHONE = /(?<![\d.])1[3-9]\d{9}(?![\d.])/g;

/** A URL safe to print: secret-looking query values masked, userinfo removed. */
export function redactUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return text;
  }
  url.username = '';
  url.password = '';
  for (const name of [...url.searchParams.keys()]) {
    if (SECRET_PARAMS.test(name)) url.searchParams.set(name, '***');
  }
  // A fragment in the query style (`#access_token=…`), as OAuth implicit flows write it.
  if (url.hash.includes('=')) {
    const hash = new URLSearchParams(url.hash.slice(1));
    for (const name of [...hash.keys()]) if (SECRET_PARAMS.test(name)) hash.set(name, '***');
    url.hash = hash.toString();
  }
  return url.toString();
}

/**
 * Any text about to leave the suite (a reason, a message, an attachment) with every secret-looking
 * URL query or fragment value masked, the userinfo of every URL (`user:pass@`) and every mobile
 * number masked, wherever they sit in it: Playwright's own errors quote whole URLs
 * (`net::ERR_TOO_MANY_REDIRECTS at …&token=…`), platforms quote accounts.
 */
export function redactText(text: string): string {
  return text.replace(SECRET_IN_TEXT, '$1***').replace(USERINFO, '$1***@').replace(PHONE, '1**********');
}
