import { SECRET_PARAM_NAMES } from './redact';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import dotenv from 'dotenv';
import { credentialSource, loadRegistry, registryEntries, type CredentialRegistry } from '../run/credentials';
import { readCookieHashes } from './seen-secrets';
import { isZip, listZip, readZipEntry, walkLocalHeaders, type ZipRecord } from './zip';

/**
 * The redaction guard (contract 3): no phone number, password, session cookie value or token in any
 * output the suite writes. Pure Node: it reads the output folders, the zip files in them (Playwright
 * traces, report bundles) and the base64 data they embed, and reports where a secret is — never the
 * secret itself.
 */

/** Output folders under the root (contract 3, 7; playwright.config.ts; lib/platform/evidence.ts). */
export const OUTPUT_DIRS = [
  'reports',
  'allure-results',
  'allure-report',
  'test-results',
  'playwright-report',
  'blob-report',
  path.join('.l1', 'evidence'),
];

/** Never scanned, wherever they are: they hold secrets by design, or are not outputs. */
const EXCLUDED_DIR_NAMES = new Set(['.auth', 'node_modules', '.git']);
const EXCLUDED_FILE_NAMES = new Set(['credentials.local.json']);

export const DEFAULT_MAX_FILE_BYTES = 200 * 1024 * 1024;
/** Zip in base64 in a zip…: nesting deeper than this is not opened (a warning says so). */
const MAX_DEPTH = 6;
/** Secrets shorter than this are ignored; up to SHORT_SECRET they only match between non-alphanumerics. */
const MIN_SECRET = 4;
const SHORT_SECRET = 8;
/** Browsers cap a cookie at 4096 bytes: longer tokens are never a whole cookie value. */
const MAX_COOKIE_CANDIDATE = 4096;
/** Recorded cookie values are at least 8 characters long (seen-secrets.ts). */
const MIN_COOKIE_CANDIDATE = 8;

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

/** Where two matches overlap, only the most specific one (lowest rank) is reported. */
const RANK: Record<Detector, number> = {
  registry: 0,
  'auth-cookie': 0,
  'cookie-hash': 1,
  'json-secret-key': 2,
  'cookie-header': 2,
  bearer: 2,
  jwt: 3,
  'phone-pattern': 3,
  'secret-query': 2,
};

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

export interface ScanOptions {
  /** The project root: default output folders, credentials, `.auth/`, `.l1/` are found under it. */
  root: string;
  /** More files or folders to scan (relative ones are resolved against the root). */
  extraPaths?: string[];
  /** Defaults to `process.env` over the root's `.env` (as the suite reads them). */
  env?: NodeJS.ProcessEnv;
  /** Scan the default output folders and root `*.log` files (default true). */
  defaultOutputs?: boolean;
  /** Files (and zip entries) larger than this are skipped with a warning. */
  maxFileBytes?: number;
}

export interface ScanReport {
  findings: Finding[];
  /** Skipped files, malformed zips, unreadable registries: never a secret. */
  warnings: string[];
  filesScanned: number;
  /** Number of distinct secret values searched for (registry entries and `.auth` cookies). */
  secretsChecked: number;
  /** Number of recorded cookie hashes checked against the tokens of every output. */
  cookieHashes: number;
}

/** Every finding in the outputs; see `scanOutputsReport` for warnings and counts. */
export function scanOutputs(options: ScanOptions): Finding[] {
  return scanOutputsReport(options).findings;
}

export function scanOutputsReport(options: ScanOptions): ScanReport {
  const root = path.resolve(options.root);
  const env = options.env ?? defaultEnv(root);
  const warnings: string[] = [];
  const secrets = collectSecrets(root, env, warnings);
  const hashes = readCookieHashes(root);
  const state: State = {
    root,
    secrets: new SecretSearch(secrets.map(prepareSecret)),
    hashes,
    hashMemo: new Map(),
    findings: [],
    seen: new Set(),
    warnings,
    maxBytes: options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
  };
  const excludedFiles = excludedFileSet(root, env);
  const files = new Map<string, string>();
  for (const target of scanTargets(root, env, options)) {
    collectFiles(target, root, excludedFiles, files, warnings);
  }
  let filesScanned = 0;
  for (const file of [...files.values()].sort()) {
    if (scanFile(file, state)) filesScanned++;
  }
  state.findings.sort(compareFindings);
  return {
    findings: state.findings,
    warnings,
    filesScanned,
    secretsChecked: secrets.length,
    cookieHashes: hashes.size,
  };
}

/** One line per finding, e.g. `reports/verdicts/x.json:3: phone number of company 1001 (…)`. */
export function formatFinding(f: Finding): string {
  return `${f.where}: ${f.what}${f.preview ? ` ${f.preview}` : ''}`;
}

/** 13812345678 → 138****5678: enough to find the number in a test's data, not to use it. */
export function maskPhone(digits: string): string {
  return digits.length < 8 ? '*'.repeat(digits.length) : `${digits.slice(0, 3)}****${digits.slice(-4)}`;
}

// ---------------------------------------------------------------------------------------------
// What to scan

function defaultEnv(root: string): NodeJS.ProcessEnv {
  let fromFile: Record<string, string> = {};
  try {
    fromFile = dotenv.parse(fs.readFileSync(path.join(root, '.env')));
  } catch {
    // no .env
  }
  return { ...fromFile, ...process.env };
}

function scanTargets(root: string, env: NodeJS.ProcessEnv, options: ScanOptions): string[] {
  const targets: string[] = [];
  if (options.defaultOutputs ?? true) {
    for (const dir of OUTPUT_DIRS) targets.push(path.join(root, dir));
    let names: string[] = [];
    try {
      names = fs.readdirSync(root);
    } catch {
      // a missing root has no log files
    }
    for (const name of names) if (name.endsWith('.log')) targets.push(path.join(root, name));
  }
  for (const name of ['L1_VERDICTS_DIR', 'L1_ALLURE_RESULTS_DIR']) {
    const value = env[name];
    if (value) targets.push(path.resolve(root, value));
  }
  for (const p of (env.L1_REDACTION_EXTRA_PATHS ?? '').split(':')) if (p) targets.push(path.resolve(root, p));
  for (const p of options.extraPaths ?? []) targets.push(path.resolve(root, p));
  return targets;
}

function excludedFileSet(root: string, env: NodeJS.ProcessEnv): Set<string> {
  const set = new Set<string>([path.join(root, 'credentials.local.json')]);
  const source = credentialSource(env, root);
  if (source.kind === 'file') set.add(path.resolve(source.where));
  for (const p of [...set]) {
    try {
      set.add(fs.realpathSync(p));
    } catch {
      // not there
    }
  }
  return set;
}

function isExcluded(file: string, root: string, excludedFiles: Set<string>): string | undefined {
  const parts = file.split(path.sep);
  const dir = parts.find((p) => EXCLUDED_DIR_NAMES.has(p));
  if (dir) return `${dir}/`;
  if (excludedFiles.has(file) || EXCLUDED_FILE_NAMES.has(path.basename(file))) return 'a credentials file';
  const demo = path.join(root, '.l1', 'demo');
  if (file === demo || file.startsWith(demo + path.sep)) return '.l1/demo/';
  return undefined;
}

/** Files under a target (deduplicated by real path); symlinked folders are not followed. */
function collectFiles(
  target: string,
  root: string,
  excludedFiles: Set<string>,
  files: Map<string, string>,
  warnings: string[],
): void {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(target);
  } catch {
    return; // missing folders are skipped silently
  }
  if (isExcluded(target, root, excludedFiles)) {
    if (stat.isFile())
      warnings.push(`${display(target, root)}: not scanned (${isExcluded(target, root, excludedFiles)})`);
    return;
  }
  if (stat.isFile()) {
    addFile(target, files);
    return;
  }
  if (!stat.isDirectory()) return;
  const stack = [target];
  while (stack.length) {
    const dir = stack.pop()!;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch (e) {
      warnings.push(
        `${display(dir, root)}: cannot read the folder (${(e as NodeJS.ErrnoException).code ?? 'error'})`,
      );
      continue;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (isExcluded(full, root, excludedFiles)) continue;
      if (entry.isDirectory()) stack.push(full);
      else if (entry.isFile()) addFile(full, files);
      else if (entry.isSymbolicLink()) {
        try {
          if (fs.statSync(full).isFile()) addFile(full, files);
        } catch {
          // dangling link
        }
      }
    }
  }
}

function addFile(file: string, files: Map<string, string>): void {
  let real = file;
  try {
    real = fs.realpathSync(file);
  } catch {
    // keep the path as given
  }
  if (!files.has(real)) files.set(real, file);
}

function display(file: string, root: string): string {
  const rel = path.relative(root, file);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : file;
}

// ---------------------------------------------------------------------------------------------
// The secrets

interface SecretValue {
  value: string;
  /** In words, e.g. "password of company 1001 in the credentials registry". */
  label: string;
  detector: 'registry' | 'auth-cookie';
}

function collectSecrets(root: string, env: NodeJS.ProcessEnv, warnings: string[]): SecretValue[] {
  const out = new Map<string, SecretValue>();
  const add = (value: string | undefined, label: string, detector: SecretValue['detector']) => {
    if (typeof value !== 'string' || value.length < MIN_SECRET || out.has(value)) return;
    out.set(value, { value, label, detector });
  };
  const fromRegistry = (registry: CredentialRegistry, where: string) => {
    for (const [who, c] of registryEntries(registry)) {
      add(c.phone, `phone number of ${who} in ${where}`, 'registry');
      add(c.password, `password of ${who} in ${where}`, 'registry');
    }
  };

  // The registry of the runs, as the suite finds it; none is fine (nothing configured yet).
  const source = credentialSource(env, root);
  if (source.kind !== 'none') {
    try {
      fromRegistry(loadRegistry(env, root), 'the credentials registry');
    } catch (e) {
      warnings.push(`credentials registry not checked: ${(e as Error).message}`);
    }
  }
  // The demo platform's random credentials.
  const demoDir = path.join(root, '.l1', 'demo');
  let demoFiles: string[] = [];
  try {
    demoFiles = fs.readdirSync(demoDir).filter((n) => /^credentials.*\.json$/.test(n));
  } catch {
    // no demo has run
  }
  for (const name of demoFiles.sort()) {
    const file = path.join(demoDir, name);
    try {
      fromRegistry(
        loadRegistry({ L1_CREDENTIALS_FILE: file }, root),
        `the demo credentials registry .l1/demo/${name}`,
      );
    } catch (e) {
      warnings.push(`demo credentials registry not checked: ${(e as Error).message}`);
    }
  }
  // Session cookies of the current storage states (.auth is read, never scanned).
  const authDir = path.join(root, '.auth');
  let authFiles: string[] = [];
  try {
    authFiles = fs.readdirSync(authDir).filter((n) => n.endsWith('.json'));
  } catch {
    // no session yet
  }
  for (const name of authFiles.sort()) {
    try {
      const state = JSON.parse(fs.readFileSync(path.join(authDir, name), 'utf8')) as {
        cookies?: { name?: unknown; value?: unknown }[];
      };
      for (const c of Array.isArray(state.cookies) ? state.cookies : []) {
        if (typeof c.value === 'string' && c.value.length >= MIN_COOKIE_CANDIDATE) {
          add(c.value, `session cookie value (of the storage state .auth/${name})`, 'auth-cookie');
        }
      }
    } catch {
      warnings.push(`.auth/${name}: not a readable storage state, its cookies are not checked`);
    }
  }
  return [...out.values()];
}

interface SecretForm {
  bytes: Buffer;
  /** e.g. ", URL-encoded"; empty for the raw form. */
  suffix: string;
  base64?: boolean;
}

interface PreparedSecret extends SecretValue {
  forms: SecretForm[];
  /** Short secrets only match between non-alphanumeric characters. */
  short: boolean;
}

function prepareSecret(s: SecretValue): PreparedSecret {
  const v = s.value;
  const texts: [string, string][] = [[v, '']];
  const uri = encodeURIComponent(v);
  texts.push([uri, ', URL-encoded']);
  texts.push([uri.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()), ', URL-encoded']);
  texts.push([uri.replace(/%20/g, '+'), ', form-encoded']);
  const json = JSON.stringify(v).slice(1, -1);
  texts.push([json, ', JSON-escaped']);
  texts.push([JSON.stringify(json).slice(1, -1), ', JSON-escaped twice']);
  texts.push([
    json.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
    ', JSON-escaped',
  ]);
  texts.push([
    v.replace(
      /[&<>"']/g,
      (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
    ),
    ', HTML-escaped',
  ]);
  if (/^1[3-9]\d{9}$/.test(v)) {
    texts.push([`${v.slice(0, 3)} ${v.slice(3, 7)} ${v.slice(7)}`, ', spaced']);
    texts.push([`${v.slice(0, 3)}-${v.slice(3, 7)}-${v.slice(7)}`, ', dashed']);
  }
  const forms: SecretForm[] = [];
  const seen = new Set<string>();
  for (const [text, suffix] of texts) {
    if (seen.has(text)) continue;
    seen.add(text);
    forms.push({ bytes: Buffer.from(text, 'utf8'), suffix });
  }
  for (const b64 of base64Forms(v)) {
    if (seen.has(b64)) continue;
    seen.add(b64);
    forms.push({ bytes: Buffer.from(b64, 'latin1'), suffix: ', base64-encoded', base64: true });
  }
  return { ...s, forms, short: v.length < SHORT_SECRET };
}

/**
 * The base64 characters that encode the secret whatever its alignment in the encoded data (0, 1 or 2
 * bytes before it): only those fully determined by the secret's own bits.
 */
function base64Forms(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const out: string[] = [];
  for (let pad = 0; pad < 3; pad++) {
    const encoded = Buffer.concat([Buffer.alloc(pad), bytes]).toString('base64');
    const first = Math.ceil((8 * pad) / 6);
    const last = Math.floor((8 * (pad + bytes.length) - 6) / 6);
    const core = encoded.slice(first, last + 1);
    if (core.length >= 8) out.push(core);
  }
  return out;
}

/**
 * Every form of every secret in one pass over the bytes: a table of the first two bytes of each form
 * filters positions, then the forms starting with those bytes are compared. (One Buffer.indexOf per
 * form and file costs seconds once dozens of demo registries have accumulated.)
 */
class SecretSearch {
  private readonly pairs = new Uint8Array(65536);
  private readonly buckets = new Map<number, { secret: PreparedSecret; form: SecretForm }[]>();
  readonly size: number;

  constructor(secrets: PreparedSecret[]) {
    this.size = secrets.length;
    for (const secret of secrets) {
      for (const form of secret.forms) {
        if (form.bytes.length < 2) continue;
        const key = (form.bytes[0]! << 8) | form.bytes[1]!;
        this.pairs[key] = 1;
        const bucket = this.buckets.get(key) ?? [];
        bucket.push({ secret, form });
        this.buckets.set(key, bucket);
      }
    }
  }

  find(buf: Buffer, hit: (index: number, secret: PreparedSecret, form: SecretForm) => void): void {
    if (this.size === 0) return;
    const pairs = this.pairs;
    const len = buf.length;
    for (let i = 0; i + 1 < len; i++) {
      const key = (buf[i]! << 8) | buf[i + 1]!;
      if (pairs[key] === 0) continue;
      for (const { secret, form } of this.buckets.get(key)!) {
        const p = form.bytes;
        if (i + p.length > len) continue;
        let k = 2;
        while (k < p.length && buf[i + k] === p[k]) k++;
        if (k === p.length) hit(i, secret, form);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Scanning

interface State {
  root: string;
  secrets: SecretSearch;
  hashes: Set<string>;
  hashMemo: Map<string, boolean>;
  findings: Finding[];
  seen: Set<string>;
  warnings: string[];
  maxBytes: number;
}

type Pos = { line: number } | { byte: number } | { entryName: true } | { none: true };
type Seg = { kind: 'entry'; name: string } | { kind: 'embedded'; at: Pos };

interface Ctx {
  path: string;
  file: string;
  segs: Seg[];
  depth: number;
}

interface Match {
  start: number;
  end: number;
  detector: Detector;
  what: string;
  preview?: string;
  /** Found in base64 form: left to the decoded data when inside embedded data that is decoded. */
  base64?: boolean;
}

/** Scans one file; false when it was skipped. */
function scanFile(file: string, st: State): boolean {
  const shown = display(file, st.root);
  let size: number;
  try {
    size = fs.statSync(file).size;
  } catch {
    return false; // removed meanwhile
  }
  if (size > st.maxBytes) {
    st.warnings.push(`${shown}: skipped, ${mib(size)} is over the ${mib(st.maxBytes)} limit`);
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

function mib(n: number): string {
  return `${(n / 1024 / 1024).toFixed(n < 1024 * 1024 ? 3 : 0)} MiB`;
}

function scanBlob(buf: Buffer, ctx: Ctx, st: State): void {
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
  for (const m of detect(buf, text, st)) if (!decodedLater(m)) report(st, ctx, pos(m.start), m);
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

function report(st: State, ctx: Ctx, pos: Pos, m: Match): void {
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
  if (st.seen.has(key)) return;
  st.seen.add(key);
  st.findings.push(finding);
}

function where(ctx: Ctx, pos: Pos): string {
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

// ---------------------------------------------------------------------------------------------
// Detectors

const PHONE = /(?<![0-9A-Za-z]|[0-9]\.)1[3-9][0-9]{9}(?![0-9A-Za-z]|\.[0-9])/g;
const BEARER = /\bBearer\s+[A-Za-z0-9._~+/-]{12,}=*/gi;
/** A URL query value under a secret-looking name (lib/report/redact.ts masks these as `***`). */
const SECRET_QUERY = new RegExp(`[?&](${SECRET_PARAM_NAMES})=([^&\\s"'#<>]{6,})`, 'gi');
const JWT = /eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g;
const COOKIE_HEADER = /\b((?:set-)?cookie)\s*:\s*[^=;,\s"'<>]{1,128}=([^;,\s"'<>\\]{12,})/gi;
/** The same header in a JSON header list: {"name":"cookie","value":"sid=…"} (traces, HAR). */
const COOKIE_HEADER_JSON =
  /"name"\s*:\s*"((?:set-)?cookie)"\s*,\s*"value"\s*:\s*"[^"=;,\s]{1,128}=([^";,\s\\]{12,})/gi;
const SECRET_KEY = /"(password|passwd|token|access_token)"\s*:\s*"((?:[^"\\\r\n]|\\.)+)"/gi;
/** The same key in JSON kept as a string inside JSON (request bodies in traces, logs). */
const SECRET_KEY_ESCAPED =
  /\\"(password|passwd|token|access_token)\\"\s*:\s*\\"((?:[^"\\\r\n]|\\[^"])+)\\"/gi;
/** Runs that may hold a cookie value: base64, base64url, hex, URL-encoded ("_" too: base64url). */
const TOKEN = /[A-Za-z0-9_.~+/=%-]{12,}/g;

/** A masked or placeholder value is not a leak: "***", "[REDACTED]", "<hidden>". */
function isPlaceholder(value: string): boolean {
  const v = value.replace(/\\/g, '').trim();
  return (
    /^[*•·xX.-]+$/.test(v) ||
    /^[[<({]?\s*(redacted|masked|hidden|omitted|removed|secret|filtered)\s*[\]>)}]?$/i.test(v)
  );
}

function detect(buf: Buffer, text: string, st: State): Match[] {
  const matches: Match[] = [];
  st.secrets.find(buf, (i, s, form) => {
    const n = form.bytes.length;
    if (s.short && (isAlnum(buf[i - 1]) || isAlnum(buf[i + n]))) return;
    matches.push({
      start: i,
      end: i + n,
      detector: s.detector,
      what: `${s.label}${form.suffix}`,
      base64: form.base64,
    });
  });
  if (st.hashes.size) {
    for (const m of text.matchAll(TOKEN)) {
      const hit = cookieCandidates(m[0]).find((c) => isSeenCookie(c.text, st));
      if (hit) {
        const start = m.index + hit.start;
        matches.push({
          start,
          end: start + hit.text.length,
          detector: 'cookie-hash',
          what: `session cookie value (seen by the suite)${hit.decoded ? ', URL-encoded' : ''}`,
        });
      }
    }
  }
  for (const m of text.matchAll(PHONE)) {
    matches.push({
      start: m.index,
      end: m.index + m[0].length,
      detector: 'phone-pattern',
      what: 'phone number (mainland China mobile pattern)',
      preview: maskPhone(m[0]),
    });
  }
  for (const m of text.matchAll(SECRET_QUERY)) {
    if (/^(\*+|%2A%2A%2A)$/i.test(m[2]!)) continue;
    matches.push({
      start: m.index,
      end: m.index + m[0].length,
      detector: 'secret-query',
      what: `URL query "${m[1]}" with a value`,
    });
  }
  for (const m of text.matchAll(BEARER)) {
    matches.push({ start: m.index, end: m.index + m[0].length, detector: 'bearer', what: 'bearer token' });
  }
  for (const m of text.matchAll(JWT)) {
    matches.push({ start: m.index, end: m.index + m[0].length, detector: 'jwt', what: 'JSON web token' });
  }
  for (const re of [COOKIE_HEADER, COOKIE_HEADER_JSON]) {
    for (const m of text.matchAll(re)) {
      if (isPlaceholder(m[2]!)) continue;
      const header = m[1]!.toLowerCase() === 'cookie' ? 'Cookie' : 'Set-Cookie';
      matches.push({
        start: m.index,
        end: m.index + m[0].length,
        detector: 'cookie-header',
        what: `${header} header with a cookie value`,
      });
    }
  }
  for (const re of [SECRET_KEY, SECRET_KEY_ESCAPED]) {
    for (const m of text.matchAll(re)) {
      if (isPlaceholder(m[2]!)) continue;
      matches.push({
        start: m.index,
        end: m.index + m[0].length,
        detector: 'json-secret-key',
        what: `JSON "${m[1]}" with a value`,
      });
    }
  }
  return keepMostSpecific(matches);
}

function isAlnum(byte: number | undefined): boolean {
  return (
    byte !== undefined &&
    ((byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a))
  );
}

/** Drops a match overlapping a more specific one (a registry phone is not also a "phone pattern"). */
function keepMostSpecific(matches: Match[]): Match[] {
  const sorted = [...matches].sort((a, b) => RANK[a.detector] - RANK[b.detector] || a.start - b.start);
  const kept: Match[] = [];
  for (const m of sorted) {
    const shadowed = kept.some(
      (k) => RANK[k.detector] < RANK[m.detector] && k.start < m.end && m.start < k.end,
    );
    if (!shadowed) kept.push(m);
  }
  return kept.sort((a, b) => a.start - b.start);
}

interface Candidate {
  text: string;
  start: number;
  decoded?: boolean;
}

/**
 * Substrings of a token that may be a whole cookie value: the token, and every run between its
 * separators (".", "=", "%"), so `sid=VALUE`, `VALUE==` and `a.b.c` all yield the value.
 */
function cookieCandidates(token: string): Candidate[] {
  const out: Candidate[] = [];
  const add = (start: number, end: number) => {
    const len = end - start;
    if (len >= MIN_COOKIE_CANDIDATE && len <= MAX_COOKIE_CANDIDATE)
      out.push({ text: token.slice(start, end), start });
  };
  const seps: number[] = [];
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i);
    if (c === 0x2e || c === 0x3d || c === 0x25) seps.push(i);
  }
  if (seps.length === 0 || seps.length > 16) {
    add(0, token.length);
    for (let k = 0, from = 0; k <= seps.length; k++) {
      const to = k < seps.length ? seps[k]! : token.length;
      if (seps.length) add(from, to);
      from = to + 1;
    }
  } else {
    const starts = [0, ...seps.map((i) => i + 1)];
    const ends = [...seps, token.length];
    // every run from a boundary to a boundary: "sid=VALUE==" yields "VALUE==" and "VALUE"
    for (const a of starts) for (const b of ends) if (b > a) add(a, b);
  }
  if (token.includes('%') && token.length <= MAX_COOKIE_CANDIDATE) {
    try {
      const decoded = decodeURIComponent(token);
      if (decoded !== token) out.push({ text: decoded, start: 0, decoded: true });
    } catch {
      // not URL-encoded
    }
  }
  return out;
}

function isSeenCookie(candidate: string, st: State): boolean {
  let hit = st.hashMemo.get(candidate);
  if (hit === undefined) {
    hit = st.hashes.has(crypto.createHash('sha256').update(candidate, 'utf8').digest('hex'));
    if (st.hashMemo.size > 200_000) st.hashMemo.clear();
    st.hashMemo.set(candidate, hit);
  }
  return hit;
}

// ---------------------------------------------------------------------------------------------
// Embedded base64 data

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

// ---------------------------------------------------------------------------------------------
// Zip files (Playwright traces, report bundles), read with ./zip

function scanZip(buf: Buffer, ctx: Ctx, st: State): void {
  const here = formatChain(ctx.file, ctx.segs, { none: true });
  let records: ZipRecord[];
  try {
    records = listZip(buf);
  } catch (e) {
    records = walkLocalHeaders(buf);
    st.warnings.push(
      `${here}: malformed zip (${(e as Error).message}): ${records.length} entries read from local headers, raw bytes scanned too`,
    );
    // The raw bytes: stored entries and names stay findable whatever the damage.
    const text = buf.toString('latin1');
    for (const m of detect(buf, text, st)) report(st, ctx, { byte: m.start }, m);
  }
  if (ctx.depth >= MAX_DEPTH) {
    st.warnings.push(`${here}: zip nested too deep, not opened`);
    return;
  }
  for (const r of records) {
    if (r.name.endsWith('/')) continue;
    const entryCtx: Ctx = {
      ...ctx,
      segs: [...ctx.segs, { kind: 'entry', name: r.name }],
      depth: ctx.depth + 1,
    };
    const nameBuf = Buffer.from(r.name, 'utf8');
    for (const m of detect(nameBuf, nameBuf.toString('latin1'), st))
      report(st, entryCtx, { entryName: true }, m);
    if (r.size > st.maxBytes) {
      st.warnings.push(`${here}!${r.name}: skipped, ${mib(r.size)} is over the ${mib(st.maxBytes)} limit`);
      continue;
    }
    let content: Buffer;
    try {
      content = readZipEntry(buf, r, st.maxBytes);
    } catch (e) {
      st.warnings.push(`${here}: entry not readable (${(e as Error).message})`);
      continue;
    }
    scanBlob(content, entryCtx, st);
  }
}

function compareFindings(a: Finding, b: Finding): number {
  return (
    a.file.localeCompare(b.file) ||
    (a.entry ?? '').localeCompare(b.entry ?? '') ||
    (a.line ?? a.byte ?? 0) - (b.line ?? b.byte ?? 0) ||
    a.where.localeCompare(b.where)
  );
}
