/**
 * Query parameters whose values are secrets wherever a URL is printed (spec 1.5; README "Security and
 * limits"); the redaction guard looks for unmasked ones too (./detectors).
 */
export const SECRET_PARAM_NAMES =
  'token|access_token|accesstoken|refresh_token|id_token|auth|authorization|sign|signature|password|passwd|pwd|phone|mobile|session|sessionid|sid|cookie|key|apikey|api_key|secret|ticket';
const SECRET_PARAMS = new RegExp(`^(${SECRET_PARAM_NAMES})$`, 'i');
const SECRET_IN_TEXT = new RegExp(`([?&](?:${SECRET_PARAM_NAMES})=)[^&\\s"'#<>]+`, 'gi');

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
  return url.toString();
}

/**
 * Any text about to leave the suite (a reason, a message, an attachment) with every secret-looking
 * URL query value masked, wherever the URL sits in it: Playwright's own errors quote whole URLs
 * (`net::ERR_TOO_MANY_REDIRECTS at …&token=…`).
 */
export function redactText(text: string): string {
  return text.replace(SECRET_IN_TEXT, '$1***');
}
