import { isRecord } from '../util/json';

/**
 * Contract section 4: a payload comes bare or wrapped as {code: 0 | 200, msg | message, data}.
 * A wrapped answer with any other code is an API error carrying its code and message. A success code
 * without `data` is a bare payload that carries a code of its own ({"code": 0, "msg": "ok", "rows": […]}):
 * the object itself is the payload, and its schema names what it lacks.
 */
export type Unwrapped = { ok: true; payload: unknown } | { ok: false; code: unknown; message: string };

export function unwrapEnvelope(body: unknown): Unwrapped {
  if (!isRecord(body) || !('code' in body)) return { ok: true, payload: body };
  const code = body.code;
  const message =
    typeof body.msg === 'string' ? body.msg : typeof body.message === 'string' ? body.message : '';
  if (code === 0 || code === 200 || code === '0' || code === '200') {
    return { ok: true, payload: 'data' in body ? body.data : body };
  }
  return { ok: false, code, message: message || '(no message)' };
}

/**
 * How an error answer's `code` is named in the run's reason: a number, string, boolean or null as
 * JSON (a string cut to 80 characters); anything else by its kind, never serialised (a code nested
 * 200,000 arrays deep made `JSON.stringify` throw "Maximum call stack size exceeded", the whole
 * reason, with no endpoint: hostile-platform audit of 2026-11-27).
 */
export function codeText(code: unknown): string {
  if (typeof code === 'string') return JSON.stringify(code.length > 80 ? `${code.slice(0, 80)}…` : code);
  if (typeof code === 'number' || typeof code === 'boolean' || code === null) return String(code);
  return `(${Array.isArray(code) ? 'an array' : typeof code}, not a code)`;
}
