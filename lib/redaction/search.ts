import fs from 'node:fs';
import { isZip, overLimit, readZip } from './archive';
import { detect, type Known } from './detectors';
import { display, Findings, where, type Ctx, type Match, type Pos } from './findings';

/**
 * Scanning one file: text by line, binary data by byte offset, zip entries (./archive) and base64
 * data embedded in a text (data: URIs, quoted base64 literals) opened and scanned in turn.
 */

/** Zip in base64 in a zip…: nesting deeper than this is not opened (a warning says so). */
const MAX_DEPTH = 6;

export interface ScanState extends Known {
  root: string;
  findings: Findings;
  warnings: string[];
  /** Files and zip entries larger than this are skipped with a warning. */
  maxBytes: number;
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
  if (size > st.maxBytes) {
    st.warnings.push(`${shown}: ${overLimit(size, st.maxBytes)}`);
    return false;
  }
  let buf: Buffer;
  try {
    buf = fs.readFileSync(file);
  } catch (e) {
    st.warnings.push(`${shown}: cannot read (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
    return false;
  }
  scanBlob(buf, { path: file, file: shown, segs: [], depth: 0 }, st);
  return true;
}

function scanBlob(buf: Buffer, ctx: Ctx, st: ScanState): void {
  if (isZip(buf)) {
    scanZip(buf, ctx, st);
    return;
  }
  const binary = buf.subarray(0, 8192).includes(0);
  const text = buf.toString('latin1');
  let starts: number[] | undefined;
  const pos = (offset: number): Pos => {
    if (binary) return { byte: offset };
    starts ??= lineStarts(buf);
    return { line: lineOf(starts, offset) };
  };
  const embedded = binary ? [] : embeddedBase64(text);
  const decodedLater = (m: Match) =>
    m.base64 && embedded.some((e) => e.dataStart <= m.start && m.end <= e.dataEnd);
  for (const m of detect(buf, text, st)) if (!decodedLater(m)) st.findings.add(ctx, pos(m.start), m);
  for (const e of embedded) {
    if (ctx.depth >= MAX_DEPTH) {
      st.warnings.push(`${where(ctx, pos(e.start))}: embedded data nested too deep, not opened`);
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
    st.warnings.push(`${here}: zip nested too deep, not opened`);
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
    if (entry.problem) st.warnings.push(`${here}!${entry.name}: ${entry.problem}`);
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
    while (end < text.length && isBase64Char(text.charCodeAt(end))) end++;
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

function isBase64Char(code: number): boolean {
  return (
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x61 && code <= 0x7a) ||
    (code >= 0x30 && code <= 0x39) ||
    code === 0x2b ||
    code === 0x2f
  );
}

/**
 * Quoted base64 literals (`"…"` or `'…'`, at least 24 characters, `=` padding): a linear scan. A
 * regular expression with a back-reference overflowed V8's stack on the megabytes of base64 a
 * single-file Allure report embeds.
 */
function* base64Literals(text: string): Generator<{ start: number; data: string }> {
  for (let i = 0; i < text.length; i++) {
    const quote = text.charCodeAt(i);
    if (quote !== 0x22 && quote !== 0x27) continue;
    let j = i + 1;
    while (j < text.length && isBase64Char(text.charCodeAt(j))) j++;
    let end = j;
    while (end < text.length && end - j < 2 && text.charCodeAt(end) === 0x3d) end++;
    if (j - (i + 1) >= 24 && text.charCodeAt(end) === quote) {
      yield { start: i, data: text.slice(i + 1, end) };
      i = end;
    } else {
      i = j - 1;
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
