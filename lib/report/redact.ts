/** Query parameters whose values are secrets wherever a URL is printed (contract 3, spec 1.5). */
const SECRET_PARAMS =
  /^(token|access_token|accesstoken|auth|authorization|sign|signature|password|passwd|pwd|phone|mobile|session|sessionid|sid|cookie|key|apikey|api_key|secret|ticket)$/i;

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
