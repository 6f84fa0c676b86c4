import path from 'node:path';

/** What found a secret: a known value (registry, storage state, recorded hash) or a pattern. */
export type Detector =
  | 'registry'
  | 'auth-cookie'
  | 'cookie-hash'
  | 'json-secret-key'
  | 'cookie-header'
  | 'bearer'
  | 'jwt'
  | 'phone-pattern'
  | 'secret-query';

export interface Finding {
  /** The file, relative to the root when inside it, else absolute. */
  file: string;
  /** The file's absolute path. */
  path: string;
  /** Zip entry (nested entries joined with "!") holding the text, outside any embedded data. */
  entry?: string;
  /** 1-based line of a text (for embedded data: the line of the text embedding it). */
  line?: number;
  /** Byte offset in a binary file or entry. */
  byte?: number;
  /** True when the secret is inside base64 data embedded in the file (data: URI, base64 literal). */
  embedded?: boolean;
  /** Where inside the embedded data, e.g. "report.json:3" or "line 1". */
  inner?: string;
  detector: Detector;
  /** What was found, in words; never the secret. */
  what: string;
  /** A masked preview (phone patterns only), e.g. 138****5678. */
  preview?: string;
  /** `file:line`, `file:byte N`, `file!entry:line`, `file:line (embedded data, …)`. */
  where: string;
}

/** One match of a detector in a text or in bytes: offsets, never the matched value. */
export interface Match {
  start: number;
  end: number;
  detector: Detector;
  what: string;
  preview?: string;
  /** Found in base64 form: left to the decoded data when inside embedded data that is decoded. */
  base64?: boolean;
}

/** A position in what is being scanned. */
export type Pos = { line: number } | { byte: number } | { entryName: true } | { none: true };
/** One step down from the file: into a zip entry, or into base64 data embedded at a position. */
export type Seg = { kind: 'entry'; name: string } | { kind: 'embedded'; at: Pos };

/** What is being scanned: a file, or something inside it (`segs`). */
export interface Ctx {
  path: string;
  /** The file as shown in findings (see `display`). */
  file: string;
  segs: Seg[];
  depth: number;
}

/** One line per finding, e.g. `reports/verdicts/x.json:3: phone number of company 1001 (…)`. */
export function formatFinding(f: Finding): string {
  return `${f.where}: ${f.what}${f.preview ? ` ${f.preview}` : ''}`;
}

/** 13812345678 → 138****5678: enough to find the number in a test's data, not to use it. */
export function maskPhone(digits: string): string {
  return digits.length < 8 ? '*'.repeat(digits.length) : `${digits.slice(0, 3)}****${digits.slice(-4)}`;
}

/** A file as findings and warnings name it: relative to the root (with "/") when inside it. */
export function display(file: string, root: string): string {
  const rel = path.relative(root, file);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : file;
}

/** The findings of one scan, each place and secret kind once. */
export class Findings {
  readonly list: Finding[] = [];
  private readonly seen = new Set<string>();

  add(ctx: Ctx, pos: Pos, m: Match): void {
    const firstEmbedded = ctx.segs.findIndex((s) => s.kind === 'embedded');
    const outerSegs = firstEmbedded === -1 ? ctx.segs : ctx.segs.slice(0, firstEmbedded);
    const outerPos = firstEmbedded === -1 ? pos : (ctx.segs[firstEmbedded] as { at: Pos }).at;
    const entries = outerSegs.map((s) => (s as { name: string }).name);
    const finding: Finding = {
      file: ctx.file,
      path: ctx.path,
      ...(entries.length ? { entry: entries.join('!') } : {}),
      ...('line' in outerPos ? { line: outerPos.line } : {}),
      ...('byte' in outerPos ? { byte: outerPos.byte } : {}),
      ...(firstEmbedded === -1
        ? {}
        : { embedded: true, inner: formatChain('', ctx.segs.slice(firstEmbedded + 1), pos) }),
      detector: m.detector,
      what: m.what,
      ...(m.preview ? { preview: m.preview } : {}),
      where: where(ctx, pos),
    };
    const key = `${finding.where}\u0000${finding.what}\u0000${finding.preview ?? ''}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.list.push(finding);
  }

  sorted(): Finding[] {
    return [...this.list].sort(compareFindings);
  }
}

/** `file!entry:line (embedded data, inner:line)` for a position in a context. */
export function where(ctx: Ctx, pos: Pos): string {
  return formatChain(ctx.file, ctx.segs, pos);
}

function posText(pos: Pos, bare: boolean): string {
  if ('line' in pos) return bare ? `line ${pos.line}` : `:${pos.line}`;
  if ('byte' in pos) return bare ? `byte ${pos.byte}` : `:byte ${pos.byte}`;
  if ('none' in pos) return '';
  return bare ? 'entry name' : ' (entry name)';
}

function formatChain(head: string, segs: Seg[], pos: Pos): string {
  let s = head;
  for (let i = 0; i < segs.length; i++) {
    const seg = segs[i]!;
    if (seg.kind === 'entry') {
      s += s ? `!${seg.name}` : seg.name;
      continue;
    }
    const inner = formatChain('', segs.slice(i + 1), pos);
    return `${s}${posText(seg.at, !s)} (embedded data${inner ? `, ${inner}` : ''})`;
  }
  return `${s}${posText(pos, !s)}`;
}

function compareFindings(a: Finding, b: Finding): number {
  return (
    a.file.localeCompare(b.file) ||
    (a.entry ?? '').localeCompare(b.entry ?? '') ||
    (a.line ?? a.byte ?? 0) - (b.line ?? b.byte ?? 0) ||
    a.where.localeCompare(b.where) ||
    a.what.localeCompare(b.what)
  );
}
