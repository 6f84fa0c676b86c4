/**
 * Contract section 4: a payload comes bare or wrapped as {code: 0 | 200, msg | message, data}.
 * A wrapped answer with any other code is an API error carrying its code and message.
 */
export type Unwrapped = { ok: true; payload: unknown } | { ok: false; code: unknown; message: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function unwrapEnvelope(body: unknown): Unwrapped {
  if (!isRecord(body) || !('code' in body)) return { ok: true, payload: body };
  const code = body.code;
  const message =
    typeof body.msg === 'string' ? body.msg : typeof body.message === 'string' ? body.message : '';
  if (code === 0 || code === 200 || code === '0' || code === '200') {
    if (!('data' in body))
      return { ok: false, code, message: `wrapped answer without data (${message || 'no message'})` };
    return { ok: true, payload: body.data };
  }
  return { ok: false, code, message: message || '(no message)' };
}
