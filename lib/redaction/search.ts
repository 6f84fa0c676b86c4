import fs from 'node:fs';
import { isZip, mib, overLimit, readZip } from './archive';
import { detect, type Known } from './detectors';
import { charTable } from './jwt';
import { display, Findings, where, type Ctx, type Match, type Pos } from './findings';

/**
 * Scanning one file: text by line, binary data by byte offset, zip entries (./archive) and base64
 * data embedded in a text (data: URIs, quoted base64 literals) opened and scanned in turn. A file
 * larger than the limit is scanned in windows (`scanWindows`); what cannot be read within the
 * limit is `unscanned`, which fails the guard: it never passes what it did not read.
 */

/** Base64's characters, `[A-Za-z0-9+/]`, and with its padding `=`: one table read per character. */
const BASE64 = charTable(/[A-Za-z0-9+/]/);
const BASE64_OR_PAD = charTable(/[A-Za-z0-9+/=]/);

/** Zip in base64 in a zip…: nesting deeper than this is not opened (unscanned: the guard fails). */
const MAX_DEPTH = 6;

export interface ScanState extends Known {
  root: string;
  findings: Findings;
  warnings: string[];
  /**
   * The most bytes read at once: a larger file is scanned in windows of this size; a larger zip
   * or zip entry, which cannot be read in parts, is `unscanned`.
   */
  maxBytes: number;
  /** What each window also reads before and after its own part, so a match across its edge is whole. */
  overlapBytes: number;
  /** `file: why` for what could not be scanned (a failure of the guard). */
  unscanned: string[];
}

/** Scans one file; false when it was skipped. */
export function scanFile(file: string, st: ScanState): boolean {
  const shown = display(file, st.root);
  let size: number;
  try {
    size = fs.statSync(file).size;
  } catch {
    return false; // removed meanwhile
  }
  if (size > st.maxBytes) return scanWindows(file, shown, size, st);
  let buf: Buffer;
  try {
    buf = fs.readFileSync(file);
  } catch (e) {
    unreadable(shown, e, st);
    return false;
  }
  scanBlob(buf, { path: file, file: shown, segs: [], depth: 0 }, st);
  return true;
}

/**
 * One window of a file scanned in parts: the bytes `[offset, offset + buf.length)` of the file, of
 * which `[from, to)` (offsets in the window) are its own; the rest is the overlap with the windows
 * before and after it, read so that a match or an embedding's head across the edge is whole.
 */
interface Part {
  offset: number;
  from: number;
  to: number;
  binary: boolean;
  /** Newlines in the file before the window. */
  linesBefore: number;
}

/**
 * A file over the limit (a single-file Allure report after many nights of history, a long
 * history.jsonl, a video) in windows of at most `maxBytes` (the scale audit of 2026-11-26 found a
 * 307 MB report and a 251 MB history skipped with a warning, a planted secret unseen). Each window
 * ends just after a byte that is not base64, so embedded base64 data is never cut: it is decoded
 * by the window its data starts in. Matches and embeddings are each reported by the window they
 * start in. A zip is read whole (its directory is at its end): one over the limit is unscanned,
 * as is a run of base64 longer than a window.
 */
function scanWindows(file: string, shown: string, size: number, st: ScanState): boolean {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (e) {
    unreadable(shown, e, st);
    return false;
  }
  try {
    const read = (offset: number, length: number): Buffer => {
      const buf = Buffer.allocUnsafe(length);
      let got = 0;
      while (got < length) {
        const n = fs.readSync(fd, buf, got, length - got, offset + got);
        if (n === 0) break; // shortened meanwhile
        got += n;
      }
      return buf.subarray(0, got);
    };
    const head = read(0, Math.min(size, 8192));
    if (isZip(head)) {
      st.unscanned.push(`${shown}: a zip, ${overLimit(size, st.maxBytes)} (a zip is read whole)`);
      return false;
    }
    const binary = head.includes(0);
    const overlap = Math.min(st.overlapBytes, Math.floor(st.maxBytes / 4));
    const own = st.maxBytes - 2 * overlap;
    const ctx: Ctx = { path: file, file: shown, segs: [], depth: 0 };
    let start = 0;
    let linesBefore = 0;
    while (start < size) {
      const offset = Math.max(0, start - overlap);
      const buf = read(offset, Math.min(size, start + own + overlap) - offset);
      const from = start - offset;
      let to = buf.length;
      if (start + own < size && offset + buf.length > start + own) {
        to = start + own - offset;
        while (to > from && BASE64_OR_PAD[buf[to - 1]!]) to--;
        if (to === from) {
          st.unscanned.push(
            `${shown}: base64 data longer than ${mib(own)} from byte ${start}, not scanned from there`,
          );
          return true;
        }
      }
      const before = binary ? 0 : linesBefore - countNewlines(buf, 0, from);
      scanBlob(buf, ctx, st, { offset, from, to, binary, linesBefore: before });
      if (!binary) linesBefore += countNewlines(buf, from, to);
      if (to <= from) break; // the file ended early (shortened meanwhile)
      start = offset + to;
    }
    return true;
  } finally {
    fs.closeSync(fd);
  }
}

/** A file that went away meanwhile is no output any more; one that cannot be read is unscanned. */
function unreadable(shown: string, e: unknown, st: ScanState): void {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return;
  st.unscanned.push(`${shown}: cannot read (${code ?? 'error'})`);
}

function countNewlines(buf: Buffer, from: number, to: number): number {
  let n = 0;
  for (let i = buf.indexOf(10, from); i !== -1 && i < to; i = buf.indexOf(10, i + 1)) n++;
  return n;
}

function scanBlob(buf: Buffer, ctx: Ctx, st: ScanState, part?: Part): void {
  if (!part && isZip(buf)) {
    scanZip(buf, ctx, st);
    return;
  }
  const binary = part ? part.binary : buf.subarray(0, 8192).includes(0);
  const text = buf.toString('latin1');
  let starts: number[] | undefined;
  const pos = (offset: number): Pos => {
    if (binary) return { byte: (part?.offset ?? 0) + offset };
    starts ??= lineStarts(buf);
    return { line: (part?.linesBefore ?? 0) + lineOf(starts, offset) };
  };
  // A window reports what starts in its own part; the next one reports the rest.
  const own = (offset: number) => !part || (part.from <= offset && offset < part.to);
  const embedded = binary ? [] : embeddedBase64(text);
  const decodedLater = (m: Match) =>
    m.base64 && embedded.some((e) => e.dataStart <= m.start && m.end <= e.dataEnd);
  for (const m of detect(buf, text, st))
    if (own(m.start) && !decodedLater(m)) st.findings.add(ctx, pos(m.start), m);
  for (const e of embedded) {
    if (!own(e.dataStart)) continue;
    if (ctx.depth >= MAX_DEPTH) {
      st.unscanned.push(`${where(ctx, pos(e.start))}: embedded data nested too deep, not opened`);
      break;
    }
    const decoded = Buffer.from(e.data, 'base64');
    if (decoded.length === 0) continue;
    scanBlob(
      decoded,
      { ...ctx, segs: [...ctx.segs, { kind: 'embedded', at: pos(e.start) }], depth: ctx.depth + 1 },
      st,
    );
  }
}

/** A zip: each entry's name and content; a malformed one also as raw bytes (stored data stays findable). */
function scanZip(buf: Buffer, ctx: Ctx, st: ScanState): void {
  const here = where(ctx, { none: true });
  if (ctx.depth >= MAX_DEPTH) {
    st.unscanned.push(`${here}: zip nested too deep, not opened`);
    return;
  }
  const zip = readZip(buf, st.maxBytes);
  if (zip.malformed !== undefined) {
    st.warnings.push(
      `${here}: malformed zip (${zip.malformed}): ${zip.entries.length} entries read from local headers, raw bytes scanned too`,
    );
    for (const m of detect(buf, buf.toString('latin1'), st)) st.findings.add(ctx, { byte: m.start }, m);
  }
  for (const entry of zip.entries) {
    const entryCtx: Ctx = {
      ...ctx,
      segs: [...ctx.segs, { kind: 'entry', name: entry.name }],
      depth: ctx.depth + 1,
    };
    const nameBuf = Buffer.from(entry.name, 'utf8');
    for (const m of detect(nameBuf, nameBuf.toString('latin1'), st))
      st.findings.add(entryCtx, { entryName: true }, m);
    if (entry.problem)
      (entry.overLimit ? st.unscanned : st.warnings).push(`${here}!${entry.name}: ${entry.problem}`);
    if (entry.data?.length) scanBlob(entry.data, entryCtx, st);
  }
}

/** `data:…;base64,…` URIs (Playwright's HTML report) and quoted base64 literals (Allure single file). */
/** The head of a data: URI up to its base64 data (bounded: only the head is matched by a regex). */
const DATA_URI_HEAD = /^data:[A-Za-z0-9.+/-]*(?:;[A-Za-z0-9.+/=_-]+)*;base64,/;

/** `data:…;base64,DATA` embeddings, the data read by a linear scan (no regexp over megabytes). */
function* dataUris(text: string): Generator<Embedded> {
  for (let at = text.indexOf('data:'); at >= 0; at = text.indexOf('data:', at + 5)) {
    const head = DATA_URI_HEAD.exec(text.slice(at, at + 300));
    if (!head) continue;
    const dataStart = at + head[0].length;
    let end = dataStart;
    while (end < text.length && BASE64[text.charCodeAt(end)]) end++;
    let padded = end;
    while (padded < text.length && padded - end < 2 && text.charCodeAt(padded) === 0x3d) padded++;
    if (end - dataStart >= 8)
      yield { start: at, dataStart, dataEnd: padded, data: text.slice(dataStart, padded) };
    // On from the end of the data, less four: a `data:` glued to unpadded data starts inside its
    // run (`…eCB5data:…`), and was missed when the search went on from the end.
    at = Math.max(at, padded - 9);
  }
}

interface Embedded {
  /** Where the embedding starts (the `data:` or the quote). */
  start: number;
  dataStart: number;
  dataEnd: number;
  data: string;
}

function embeddedBase64(text: string): Embedded[] {
  const out: Embedded[] = [];
  for (const uri of dataUris(text)) out.push(uri);
  for (const literal of base64Literals(text)) {
    const data = literal.data;
    // Base64 has a length multiple of 4 once padded; mixed case or digits tell it from a word.
    if (data.length % 4 !== 0) continue;
    if (!/[0-9+/]/.test(data) && !(/[a-z]/.test(data) && /[A-Z]/.test(data))) continue;
    out.push({
      start: literal.start,
      dataStart: literal.start + 1,
      dataEnd: literal.start + 1 + data.length,
      data,
    });
  }
  return out;
}

/**
 * Quoted base64 literals (`"…"` or `'…'`, at least 24 characters, `=` padding): a linear scan. A
 * regular expression with a back-reference overflowed V8's stack on the megabytes of base64 a
 * single-file Allure report embeds.
 */
export function* base64Literals(text: string): Generator<{ start: number; data: string }> {
  // The next quote of each kind, found by `indexOf` (native), not by looking at every character.
  let double = text.indexOf('"');
  let single = text.indexOf("'");
  for (let from = 0; ;) {
    if (double !== -1 && double < from) double = text.indexOf('"', from);
    if (single !== -1 && single < from) single = text.indexOf("'", from);
    const i = double === -1 ? single : single === -1 ? double : Math.min(double, single);
    if (i === -1) return;
    const quote = text.charCodeAt(i);
    let j = i + 1;
    while (j < text.length && BASE64[text.charCodeAt(j)]) j++;
    let end = j;
    while (end < text.length && end - j < 2 && text.charCodeAt(end) === 0x3d) end++;
    if (j - (i + 1) >= 24 && text.charCodeAt(end) === quote) {
      yield { start: i, data: text.slice(i + 1, end) };
      from = end + 1;
    } else {
      from = j;
    }
  }
}

function lineStarts(buf: Buffer): number[] {
  const starts = [0];
  for (let i = buf.indexOf(10); i !== -1; i = buf.indexOf(10, i + 1)) starts.push(i + 1);
  return starts;
}

function lineOf(starts: number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}
