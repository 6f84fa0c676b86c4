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
const DATA_URI = /data:[A-Za-z0-9.+/-]*(?:;[A-Za-z0-9.+/=_-]+)*;base64,([A-Za-z0-9+/]{8,}={0,2})/g;
const BASE64_LITERAL = /(["'])([A-Za-z0-9+/]{24,}={0,2})\1/g;

interface Embedded {
  /** Where the embedding starts (the `data:` or the quote). */
  start: number;
  dataStart: number;
  dataEnd: number;
  data: string;
}

function embeddedBase64(text: string): Embedded[] {
  const out: Embedded[] = [];
  for (const m of text.matchAll(DATA_URI)) {
    const data = m[1]!;
    const dataStart = m.index + m[0].length - data.length;
    out.push({ start: m.index, dataStart, dataEnd: dataStart + data.length, data });
  }
  for (const m of text.matchAll(BASE64_LITERAL)) {
    const data = m[2]!;
    // Base64 has a length multiple of 4 once padded; mixed case or digits tell it from a word.
    if (data.length % 4 !== 0) continue;
    if (!/[0-9+/]/.test(data) && !(/[a-z]/.test(data) && /[A-Z]/.test(data))) continue;
    out.push({ start: m.index, dataStart: m.index + 1, dataEnd: m.index + 1 + data.length, data });
  }
  return out;
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
