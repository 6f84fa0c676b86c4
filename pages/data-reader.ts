/**
 * Reading DATA so that the page cannot lie about its size (README.md § Security and limits).
 *
 * `READER_INIT` runs in every page of the report's context before any script of the page
 * (`context.addInitScript`): it captures the functions it needs (`Object.keys`, `JSON.stringify`
 * for strings and numbers, `Reflect.apply`, Set and String methods, `String`, indirect eval) and defines a
 * frozen, non-configurable `window.__l1Reader`, so a page that replaces `JSON.stringify`,
 * `Object.keys`, `Array.prototype.sort` or `toJSON` changes nothing here. `read(limit)` walks DATA
 * once (each getter is called once: a value that answers differently on each read is read once),
 * writes JSON text with markers for NaN and ±Infinity (kept so the schema rejects them), and stops
 * as soon as the text passes `limit`. The suite then pulls the text in chunks and counts the bytes
 * on its own side (`readDataText`), so `L1_MAX_ANSWER_MB` holds whatever the page reports. The
 * message of an error DATA throws is cut to `MESSAGE_CHARS` in the page, with the captured
 * functions, before it crosses: the page's own `String` or `slice` cannot send more.
 */
import type { Page } from '@playwright/test';

/** JSON strings standing for numbers JSON cannot hold (revived by `parseDataText`). */
const NON_FINITE: Record<string, number> = {
  '\u0000l1:NaN': Number.NaN,
  '\u0000l1:Infinity': Number.POSITIVE_INFINITY,
  '\u0000l1:-Infinity': Number.NEGATIVE_INFINITY,
};

/** Chunks of the DATA text the suite pulls (characters). */
const CHUNK = 1 << 20;

/** Deeper than this is not a report's DATA (and would overflow the page's stack). */
const MAX_DEPTH = 64;

/** Characters of the message of an error DATA threw that cross from the page (the rest is cut there). */
const MESSAGE_CHARS = 200;

export const READER_INIT = `(() => {
  const apply = Reflect.apply, keys = Object.keys, isArray = Array.isArray, stringify = JSON.stringify;
  const isFinite_ = Number.isFinite, geval = eval, freeze = Object.freeze, define = Object.defineProperty;
  const setHas = Set.prototype.has, setAdd = Set.prototype.add, setDelete = Set.prototype.delete, S = Set;
  const slice = String.prototype.slice, Str = String, win = window;
  // The reader's own stops: objects no page script holds, told apart by identity (not instanceof,
  // which a page may answer through Error[Symbol.hasInstance]).
  const TOO_LARGE = freeze({ why: 'too-large' }), TOO_DEEP = freeze({ why: 'too-deep' }), CYCLE = freeze({ why: 'cycle' });
  let text = '';
  // The message of what DATA threw, cut in the page with the captured String and slice.
  function said(e) {
    try {
      let m = e;
      if (e !== null && (typeof e === 'object' || typeof e === 'function')) {
        m = e.message;
        if (!m) m = e;
      }
      return apply(slice, typeof m === 'string' ? m : Str(m), [0, ${MESSAGE_CHARS}]);
    } catch (e2) {
      return 'an error whose message could not be read';
    }
  }
  function read(limit) {
    text = '';
    let d;
    try {
      d = geval("typeof DATA !== 'undefined' ? DATA : window.DATA");
    } catch (e) {
      // A global const/let DATA declared by a script that failed before initializing it (its
      // temporal dead zone) hides window.DATA from the name DATA, not from window.
      // A DATA whose getter throws is said, with what it threw.
      try { d = win.DATA; } catch (e2) { return 'error:reading DATA threw: ' + said(e2); }
    }
    if (d === undefined) return 'none';
    let size = 0;
    const path = new S();
    const grow = (s) => { size += s.length; if (size > limit) throw TOO_LARGE; return s; };
    const ser = (v, depth) => {
      if (depth > ${MAX_DEPTH}) throw TOO_DEEP;
      if (v === null) return grow('null');
      const t = typeof v;
      if (t === 'string') return grow(stringify(v));
      if (t === 'number') return grow(isFinite_(v) ? stringify(v) : stringify(v !== v ? '\\u0000l1:NaN' : v > 0 ? '\\u0000l1:Infinity' : '\\u0000l1:-Infinity'));
      if (t === 'boolean') return grow(v ? 'true' : 'false');
      if (t !== 'object') return grow('null');
      if (apply(setHas, path, [v])) throw CYCLE;
      apply(setAdd, path, [v]);
      let out;
      if (isArray(v)) {
        out = grow('[');
        const n = v.length;
        for (let i = 0; i < n; i++) out += (i ? grow(',') : '') + ser(v[i], depth + 1);
        out += grow(']');
      } else {
        out = grow('{');
        const ks = keys(v);
        let first = true;
        for (let i = 0; i < ks.length; i++) {
          const k = ks[i];
          const x = v[k];
          if (x === undefined || typeof x === 'function' || typeof x === 'symbol') continue;
          out += (first ? '' : grow(',')) + grow(stringify(k)) + grow(':') + ser(x, depth + 1);
          first = false;
        }
        out += grow('}');
      }
      apply(setDelete, path, [v]);
      return out;
    };
    try {
      text = ser(d, 0);
    } catch (e) {
      text = '';
      if (e === TOO_LARGE || e === TOO_DEEP || e === CYCLE) return e.why;
      return 'error:' + said(e);
    }
    return 'data';
  }
  function chunk(at) { return apply(slice, text, [at, at + ${CHUNK}]); }
  define(window, '__l1Reader', { value: freeze({ read, chunk }), writable: false, configurable: false, enumerable: false });
})();`;

export type ReadKind = 'none' | 'cycle' | 'too-large' | 'too-deep' | 'error' | 'data';

/**
 * DATA's JSON text, measured on the suite's side: the page's reader (READER_INIT) is asked to
 * write it (stopping at `maxBytes`), then the text comes in chunks whose bytes are counted here;
 * past `maxBytes` the read stops with `too-large` whatever the page said.
 */
export async function readDataText(
  page: Page,
  maxBytes: number,
): Promise<{ kind: ReadKind; text?: string; message?: string }> {
  // Only strings cross from the page: Playwright's own serializer of objects runs in the page's
  // world, where a page may have replaced what it uses.
  const head = await page.evaluate(
    (limit) =>
      (window as unknown as { __l1Reader?: { read: (n: number) => string } }).__l1Reader?.read(limit) ??
      'error:the reader was not installed',
    maxBytes,
  );
  if (typeof head !== 'string') return { kind: 'error', message: 'the reader answered no text' };
  if (head.startsWith('error:'))
    return { kind: 'error', message: head.slice('error:'.length, 'error:'.length + MESSAGE_CHARS) };
  if (head !== 'data') return { kind: head as ReadKind };
  let text = '';
  let bytes = 0;
  for (let at = 0; ;) {
    const part = await page.evaluate(
      (from) =>
        (window as unknown as { __l1Reader: { chunk: (a: number) => string } }).__l1Reader.chunk(from),
      at,
    );
    if (typeof part !== 'string') return { kind: 'error', message: 'the reader answered no text' };
    if (part === '') break;
    bytes += Buffer.byteLength(part);
    if (bytes > maxBytes) return { kind: 'too-large' };
    text += part;
    at += part.length;
  }
  return { kind: 'data', text };
}

/** The DATA text back to a value, NaN and ±Infinity restored (the schema rejects them). */
export function parseDataText(text: string): unknown {
  return JSON.parse(text, (_key, value: unknown) =>
    typeof value === 'string' && Object.hasOwn(NON_FINITE, value) ? NON_FINITE[value] : value,
  );
}
