import { spawnSync } from 'node:child_process';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { expect, test } from './test-type';
import fc from 'fast-check';
import { Zip, ZipDeflate, zipSync } from 'fflate';
import {
  listZipEntries,
  maskPhone,
  OUTPUT_DIRS,
  readCookieHashes,
  recordCookieHashes,
  redactText,
  redactUrl,
  scanOutputsReport,
  SecretMask,
  type Finding,
} from '../../lib/redaction';
import { JWT, jwtMatches } from '../../lib/redaction/jwt';
import { PlatformClient } from '../../lib/platform/client';
import { z } from 'zod';
import { base64Literals } from '../../lib/redaction/search';
import { SUITE_WRITTEN } from '../../fixtures/collector';
import { escapeHtml, escapeRegExp } from '../../lib/util/escape';
import { sha256 } from '../../lib/util/hash';
import { markdownText } from '../../lib/report/text';
import { fileKeyOf } from '../../lib/run/runs';
import { readDotenv, readSettings, tsScript } from '../../lib/run/settings';

/*
 * Secrets are PLANTED in a temporary root and the guard must find each one, with its file and line.
 * The fake secrets are assembled at run time so that this source (which traces and reports may
 * embed) never holds one literally.
 */
const join = (...parts: string[]) => parts.join('');
const P1 = join('139', '8765', '4321'); // company 1001 (registry)
const PW1 = join('Pa ss/w0rd', '&?', '1#x'); // company 1001: URL-encoding changes it
const P2 = join('186', '0000', '1111'); // Profile B (registry)
const PW2 = join('B-secret', '-99z');
const P3 = join('150', '1111', '2222'); // company 2002 (demo registry)
const PW3 = join('demo', 'Pass', '7781');
const P_UNKNOWN = join('135', '2468', '0246'); // in no registry: only the phone pattern sees it
const COOKIE = join('Qk9vZ2xl', 'LXNlc3Np', 'b24tdmFsdWU='); // base64, padded
const COOKIE_URL = join('a7Kq_9Zr', '-Lm2Xw_p', 'T4nB8vC1', 'yH0eD3sU'); // base64url, as the demo's
const AUTH_COOKIE = join('s%3A', 'f00dCafe', 'BeefD00d', '.sig', 'Nature42');
const ALL_SECRETS = [P1, PW1, P2, PW2, P3, PW3, P_UNKNOWN, COOKIE, COOKIE_URL, AUTH_COOKIE];

const REPO = path.resolve(__dirname, '..', '..');
const roots: string[] = [];

test.afterAll(() => {
  for (const r of roots) fs.rmSync(r, { recursive: true, force: true });
});

/** A temporary project root with both registries (one outside the scanned folders, one demo). */
function makeRoot(): { root: string; env: NodeJS.ProcessEnv } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'l1-redaction-'));
  roots.push(root);
  // The registry file sits inside an output folder: the guard must never report the registry itself.
  const registry = write(
    root,
    'test-results/credentials-under-test.json',
    JSON.stringify({
      companies: { '1001': { phone: P1, password: PW1 } },
      profileB: { phone: P2, password: PW2 },
    }),
  );
  write(
    root,
    '.l1/demo/credentials-4190.json',
    JSON.stringify({
      companies: { '2002': { phone: P3, password: PW3 } },
      profileB: { phone: P2, password: PW2 },
    }),
  );
  return { root, env: { L1_CREDENTIALS_FILE: registry } };
}

function write(root: string, rel: string, content: string | Buffer): string {
  const file = path.join(root, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  return file;
}

function lines(...rows: string[]): string {
  return `${rows.join('\n')}\n`;
}

/** Runs `fn` with this process's L1_* variables replaced by `vars` (the guard's default reads them). */
function withProcessEnv<T>(vars: Record<string, string>, fn: () => T): T {
  const saved = Object.entries(process.env).filter(([k]) => k.startsWith('L1_'));
  for (const [k] of saved) delete process.env[k];
  Object.assign(process.env, vars);
  try {
    return fn();
  } finally {
    for (const k of Object.keys(process.env)) if (k.startsWith('L1_')) delete process.env[k];
    for (const [k, v] of saved) process.env[k] = v;
  }
}

/** The guard never prints what it found: no finding field holds a planted secret. */
function expectNoSecretIn(findings: Finding[]): void {
  const text = JSON.stringify(findings);
  for (const s of ALL_SECRETS) {
    expect(text).not.toContain(s);
    expect(text).not.toContain(encodeURIComponent(s));
  }
}

// A tiny zip writer (stored or deflate), as Playwright's traces are built.
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function makeZip(
  entries: { name: string; data: string | Buffer; deflate?: boolean; method?: number }[],
): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const raw = Buffer.from(e.data);
    const body = e.deflate ? zlib.deflateRawSync(raw) : raw;
    const name = Buffer.from(e.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(e.method ?? (e.deflate ? 8 : 0), 8);
    local.writeUInt32LE(crc32(raw), 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(raw.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(e.method ?? (e.deflate ? 8 : 0), 10);
    central.writeUInt32LE(crc32(raw), 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(raw.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(entries.length, 8);
  eocd.writeUInt16LE(entries.length, 10);
  eocd.writeUInt32LE(cd.length, 12);
  eocd.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, eocd]);
}

/** A zip streamed by fflate: deflated entries with data descriptors (sizes after the data). */
function streamedZip(entries: [name: string, text: string][]): Buffer {
  const chunks: Uint8Array[] = [];
  const zip = new Zip((err, chunk) => {
    if (err) throw err;
    chunks.push(chunk);
  });
  for (const [name, text] of entries) {
    const entry = new ZipDeflate(name);
    zip.add(entry);
    entry.push(Buffer.from(text), true);
  }
  zip.end();
  return Buffer.concat(chunks);
}

test.describe('the redaction guard finds planted secrets, with file and line', () => {
  test('a registry phone in a verdict-like JSON', () => {
    const { root, env } = makeRoot();
    write(
      root,
      'reports/verdicts/A-monitor.json',
      JSON.stringify(
        { run: { label: 'A-monitor', companyId: 1001 }, status: 'error', reason: `login failed for ${P1}` },
        null,
        2,
      ),
    );
    const findings = scanOutputsReport({ root, env }).findings;
    expect(findings).toEqual([
      expect.objectContaining({
        file: 'reports/verdicts/A-monitor.json',
        line: 7,
        detector: 'registry',
        what: 'phone number of company 1001 in the credentials registry',
        where: 'reports/verdicts/A-monitor.json:7',
      }),
    ]);
    expectNoSecretIn(findings);
  });

  test('a password URL-encoded in a log at the root, and a demo registry password in L1_VERDICTS_DIR', () => {
    const { root, env } = makeRoot();
    expect(encodeURIComponent(PW1)).not.toBe(PW1);
    write(
      root,
      'run.log',
      lines('GET /healthz 200', `POST /api/auth/login?pw=${encodeURIComponent(PW1)} 401`),
    );
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'l1-redaction-verdicts-'));
    roots.push(outside);
    write(outside, 'B-monitor.json', lines('{', `  "reason": "${PW3}"`, '}'));
    const findings = scanOutputsReport({ root, env: { ...env, L1_VERDICTS_DIR: outside } }).findings;
    expect(findings).toEqual([
      expect.objectContaining({
        file: path.join(outside, 'B-monitor.json'),
        line: 2,
        detector: 'registry',
        what: 'password of company 2002 in the demo credentials registry .l1/demo/credentials-4190.json',
      }),
      expect.objectContaining({
        file: 'run.log',
        line: 2,
        detector: 'registry',
        what: 'password of company 1001 in the credentials registry, URL-encoded',
      }),
    ]);
    expectNoSecretIn(findings);
  });

  test('an output variable blank on the command line and set in .env: the guard scans the folder the settings resolve', () => {
    // The guard read process.env over .env itself, where a blank value hid .env's folder: it scanned
    // nothing there while the checks wrote their verdicts into it.
    const { root } = makeRoot();
    write(
      root,
      '.env',
      lines('L1_VERDICTS_DIR=out/v', 'L1_CREDENTIALS_FILE=test-results/credentials-under-test.json'),
    );
    write(root, 'out/v/B-monitor.json', lines('{', `  "reason": "${PW1}"`, '}'));
    const shell = { L1_VERDICTS_DIR: '' };
    const settings = readSettings({
      root,
      env: shell,
      dotenv: readDotenv(root),
      now: new Date(),
      runsOptional: true,
    });
    expect(settings.paths.verdicts).toBe(path.join(root, 'out', 'v'));
    const findings = withProcessEnv(shell, () => scanOutputsReport({ root }).findings);
    expect(findings).toEqual([
      expect.objectContaining({
        file: path.join('out', 'v', 'B-monitor.json'),
        line: 2,
        detector: 'registry',
        what: 'password of company 1001 in the credentials registry',
      }),
    ]);
    expectNoSecretIn(findings);
  });

  test('envOutputs: false scans the extra paths alone, not the folders the L1_* variables name', () => {
    // The report step checks its history file this way (scripts/report.ts cleanHistory): at 300
    // runs reading the night's folders too made it 34 s instead of 20 s (scale audit 2026-11-26).
    const { root, env } = makeRoot();
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'l1-redaction-verdicts-'));
    roots.push(outside);
    write(outside, 'B-monitor.json', lines('{', `  "reason": "${PW3}"`, '}'));
    const history = write(root, 'history/history.jsonl', lines('{"a":1}', `{"m":"${P1}"}`));
    const withEnv = { ...env, L1_VERDICTS_DIR: outside, L1_REDACTION_EXTRA_PATHS: outside };
    const only = scanOutputsReport({
      root,
      env: withEnv,
      defaultOutputs: false,
      envOutputs: false,
      extraPaths: [history],
    });
    expect(only.filesScanned).toBe(1);
    expect(only.findings).toEqual([expect.objectContaining({ file: 'history/history.jsonl', line: 2 })]);
    // The default reads them.
    const all = scanOutputsReport({ root, env: withEnv, defaultOutputs: false, extraPaths: [history] });
    expect(all.findings.map((f) => f.file)).toContain(path.join(outside, 'B-monitor.json'));
  });

  test('a session cookie value whose hash the suite recorded, whole or inside a token', () => {
    const { root, env } = makeRoot();
    write(
      root,
      '.l1/redaction/cookies.sha256',
      [sha256('some-other-cookie-value'), sha256(COOKIE), sha256(COOKIE_URL)].map((h) => `${h}\n`).join(''),
    );
    write(
      root,
      'test-results/checks-item3/stdout.txt',
      lines(
        'collect: start',
        'nothing to see: 2026-11-20',
        `{"name":"sid","value":"${COOKIE}"}`,
        `url?x=1&sid=${COOKIE}&y=2`,
        `l1_session=${COOKIE_URL}; Path=/`,
        `cookie ${encodeURIComponent(COOKIE)} (URL-encoded)`,
      ),
    );
    const findings = scanOutputsReport({ root, env }).findings;
    const seen = 'session cookie value (seen by the suite)';
    expect(findings.map((f) => [f.where, f.detector, f.what])).toEqual([
      ['test-results/checks-item3/stdout.txt:3', 'cookie-hash', seen],
      ['test-results/checks-item3/stdout.txt:4', 'cookie-hash', seen],
      ['test-results/checks-item3/stdout.txt:5', 'cookie-hash', seen],
      ['test-results/checks-item3/stdout.txt:6', 'cookie-hash', `${seen}, URL-encoded`],
    ]);
    expectNoSecretIn(findings);
  });

  test('a cookie value of a .auth storage state is searched; .auth itself is never scanned', () => {
    const { root, env } = makeRoot();
    write(
      root,
      '.auth/127.0.0.1_4190__company_1001.json',
      JSON.stringify({ cookies: [{ name: 'sid', value: AUTH_COOKIE, path: '/' }], origins: [] }),
    );
    // also recorded as seen: still one finding per place, the more specific one
    write(root, '.l1/redaction/cookies.sha256', `${sha256(AUTH_COOKIE)}\n`);
    write(
      root,
      'allure-results/0b17f2c8-93c0-433d-adc9-d31aa49acfa6-attachment.txt',
      lines('cookies:', `  sid ${AUTH_COOKIE}`),
    );
    const findings = scanOutputsReport({ root, env }).findings;
    expect(findings).toEqual([
      expect.objectContaining({
        file: 'allure-results/0b17f2c8-93c0-433d-adc9-d31aa49acfa6-attachment.txt',
        line: 2,
        detector: 'auth-cookie',
        what: 'session cookie value (of the storage state .auth/127.0.0.1_4190__company_1001.json)',
      }),
    ]);
    expectNoSecretIn(findings);
  });

  test('a phone-like number in an Allure result (in no registry): the pattern, with a masked preview', () => {
    const { root, env } = makeRoot();
    const uuid = '6f1c0a52-3d4e-4f60-8a7b-9c0d1e2f3a4b';
    write(
      root,
      `allure-results/${uuid}-result.json`,
      JSON.stringify(
        {
          uuid,
          name: 'item 3 · A-monitor',
          steps: [{ name: `login as ${P_UNKNOWN}` }],
          start: 1763596800000,
        },
        null,
        2,
      ),
    );
    const findings = scanOutputsReport({ root, env }).findings;
    expect(findings).toEqual([
      expect.objectContaining({
        file: `allure-results/${uuid}-result.json`,
        line: 6,
        detector: 'phone-pattern',
        preview: '135****0246',
      }),
    ]);
    expect(maskPhone(P_UNKNOWN)).toBe('135****0246');
    expectNoSecretIn(findings);
  });

  test('a phone in no registry in every form redactText masks (+86, 0086, 86, grouped 3-4-4): the pattern finds it in an output that skipped masking (leak audit of 2026-11-28)', () => {
    const { root, env } = makeRoot();
    const [a, b, c] = ['135', '2468', '0246'];
    const forms = [
      join('+86', a, b, c),
      join('0086', a, b, c),
      join('86', a, b, c),
      join('+86 ', a, b, c),
      [a, b, c].join(' '),
      [a, b, c].join('-'),
      join('+86-', [a, b, c].join('-')),
      [a, b, c].join('\t'),
    ];
    for (const form of forms) expect(redactText(`客服 ${form}`)).not.toContain(c);
    write(root, 'reports/verdicts/summary.md', lines(...forms.map((f) => `客服 ${f}`)));
    const findings = scanOutputsReport({ root, env }).findings;
    expect(findings.map((f) => [f.line, f.detector, f.preview])).toEqual(
      forms.map((_, i) => [i + 1, 'phone-pattern', '135****0246']),
    );
    // Not a phone: a longer number, a batch id's project and date, a UUID's groups, a version.
    write(
      root,
      'reports/verdicts/summary.md',
      lines(join('186', a, b, c), 'XH-HIST-150-20251110-D', 'a150-1234-4567', join('v1.', a, b, c)),
    );
    expect(scanOutputsReport({ root, env }).findings).toEqual([]);
    expectNoSecretIn(findings);
  });

  test('a phone grouped by a Unicode space (ideographic, no-break, narrow no-break, thin), which redactText masks: the pattern finds it in the UTF-8 the guard reads as latin1 (leak audit of 2026-11-28)', () => {
    const { root, env } = makeRoot();
    const [a, b, c] = ['135', '2468', '0246'];
    const forms = ['\u3000', '\u00a0', '\u202f', '\u2009'].map((sep) => [a, b, c].join(sep));
    forms.push(join('+86\u3000', [a, b, c].join('\u3000')));
    for (const form of forms) expect(redactText(`客服 ${form}`)).not.toContain(c);
    write(root, 'reports/verdicts/summary.md', lines(...forms.map((f) => `客服 ${f}`)));
    const findings = scanOutputsReport({ root, env }).findings;
    expect(findings.map((f) => [f.line, f.detector, f.preview])).toEqual(
      forms.map((_, i) => [i + 1, 'phone-pattern', '135****0246']),
    );
    // Two different separators are no grouped number, as MOBILE has it.
    write(root, 'reports/verdicts/summary.md', lines([a, b].join('\u3000') + `-${c}`));
    expect(redactText([a, b].join('\u3000') + `-${c}`)).toContain(c);
    expect(scanOutputsReport({ root, env }).findings).toEqual([]);
    expectNoSecretIn(findings);
  });

  test('bearer tokens, JWTs, cookie headers and JSON secret keys', () => {
    const { root, env } = makeRoot();
    const jwt = join('eyJhbGciOiJIUzI1NiJ9', '.', 'eyJzdWIiOiIxMDAxIn0', '.', 'c2lnbmF0dXJlLXBhcnQ');
    write(
      root,
      'test-results/checks-item4/error-context.md',
      lines(
        '# Error context',
        `authorization: bearer ${join('abc123DEF456', 'ghi789')}`,
        `token in a URL: https://h/x?t=${jwt}`,
        `Set-Cookie: sid=${join('f00dcafe', 'beef1234')}; HttpOnly; Path=/`,
        `Cookie: sid=${join('0123456789', 'abcdef')}`,
        `{"headers":[{"name":"cookie","value":"sid=${join('zyxwvutsr', 'q987654')}"}]}`,
        `{"access_token": "${join('at-', 'value-1')}"}`,
        `"postData":"{\\"phone\\":\\"x\\",\\"password\\":\\"${join('hunter', '2')}\\"}"`,
        `Authorization: Basic ${Buffer.from(`${P1}:${PW1}`).toString('base64')}`,
      ),
    );
    const findings = scanOutputsReport({ root, env }).findings;
    expect(findings.map((f) => [f.line, f.detector, f.what])).toEqual([
      [2, 'bearer', 'bearer token'],
      [3, 'jwt', 'JSON web token'],
      [4, 'cookie-header', 'Set-Cookie header with a cookie value'],
      [5, 'cookie-header', 'Cookie header with a cookie value'],
      [6, 'cookie-header', 'Cookie header with a cookie value'],
      [7, 'json-secret-key', 'JSON "access_token" with a value'],
      [8, 'json-secret-key', 'JSON "password" with a value'],
      // registry secrets are also searched base64-encoded, at any alignment
      // (one place: by what, so that a file read whole or in windows lists them alike)
      [9, 'registry', 'password of company 1001 in the credentials registry, base64-encoded'],
      [9, 'registry', 'phone number of company 1001 in the credentials registry, base64-encoded'],
    ]);
    expect(new Set(findings.map((f) => f.file))).toEqual(
      new Set(['test-results/checks-item4/error-context.md']),
    );
  });

  test('a secret inside a zip entry (deflate and stored), as in a Playwright trace', () => {
    const { root, env } = makeRoot();
    const trace = makeZip([
      {
        name: 'trace.trace',
        data: lines('{"type":"context-options"}', `{"type":"input","value":"${PW2}"}`),
        deflate: true,
      },
      { name: 'resources/5f1c9c2d0b5e.dat', data: `{"phone":"${P3}"}` },
      { name: 'trace.stacks', data: '{}', deflate: true },
    ]);
    expect(listZipEntries(trace).map((r) => r.name)).toEqual([
      'trace.trace',
      'resources/5f1c9c2d0b5e.dat',
      'trace.stacks',
    ]);
    write(root, 'test-results/auth-login/trace.zip', trace);
    const findings = scanOutputsReport({ root, env }).findings;
    expect(findings.map((f) => [f.where, f.entry, f.line, f.what])).toEqual([
      [
        'test-results/auth-login/trace.zip!resources/5f1c9c2d0b5e.dat:1',
        'resources/5f1c9c2d0b5e.dat',
        1,
        'phone number of company 2002 in the demo credentials registry .l1/demo/credentials-4190.json',
      ],
      [
        'test-results/auth-login/trace.zip!trace.trace:2',
        'trace.trace',
        2,
        'password of the Profile B entry in the credentials registry',
      ],
    ]);
    expectNoSecretIn(findings);
  });

  test('a secret inside base64 data: a data: URI holding a zip (HTML report), text, an Allure literal', () => {
    const { root, env } = makeRoot();
    const bundle = makeZip([
      { name: 'report.json', data: lines('{', `  "error": "${PW3}"`, '}'), deflate: true },
    ]);
    write(
      root,
      'playwright-report/index.html',
      lines(
        '<!DOCTYPE html>',
        '<html><head><link rel="icon" href="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="></head>',
        `<script>window.playwrightReportBase64 = "data:application/zip;base64,${bundle.toString('base64')}";</script>`,
        `<a href="data:text/plain;charset=utf-8;base64,${Buffer.from(lines('log', `phone ${P1}`)).toString('base64')}">log</a>`,
      ),
    );
    write(
      root,
      'allure-report/index.html',
      lines(
        '<script>',
        `d("widgets/statistic.json","${Buffer.from('{"total":1,"passed":1}').toString('base64')}"),d("data/test-results/x.json","${Buffer.from(`{"name":"login","password":"${PW2}"}`).toString('base64')}")`,
        '</script>',
      ),
    );
    const findings = scanOutputsReport({ root, env }).findings;
    expect(findings.map((f) => [f.where, f.file, f.line, f.embedded, f.inner])).toEqual([
      ['allure-report/index.html:2 (embedded data, line 1)', 'allure-report/index.html', 2, true, 'line 1'],
      [
        'playwright-report/index.html:3 (embedded data, report.json:2)',
        'playwright-report/index.html',
        3,
        true,
        'report.json:2',
      ],
      [
        'playwright-report/index.html:4 (embedded data, line 2)',
        'playwright-report/index.html',
        4,
        true,
        'line 2',
      ],
    ]);
    expect(findings.map((f) => f.detector)).toEqual(['registry', 'registry', 'registry']);
    expectNoSecretIn(findings);
  });

  test('a data: URI glued to the unpadded data of another is opened too', () => {
    // The search went on from the end of the first one's data, which had taken the "data" of the
    // next: found by the windows' generated test (the secret was then reported as base64 of the
    // outer text, not inside the data that holds it).
    const { root, env } = makeRoot();
    const b64 = (t: string) => Buffer.from(t).toString('base64');
    expect(b64('x plain y')).not.toMatch(/=$/);
    write(
      root,
      'test-results/a/page.html',
      lines(
        `<a href="data:text/plain;base64,${b64('x plain y')}data:text/plain;base64,${b64(`x ${PW3} y`)}">`,
      ),
    );
    const findings = scanOutputsReport({ root, env }).findings;
    expect(findings.map((f) => [f.where, f.detector, f.embedded])).toEqual([
      ['test-results/a/page.html:1 (embedded data, line 1)', 'registry', true],
    ]);
  });

  test('a binary file is scanned as bytes and reported with the byte offset', () => {
    const { root, env } = makeRoot();
    const head = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
    write(
      root,
      'test-results/checks-item5/screenshot.png',
      Buffer.concat([head, Buffer.from(`tEXt${P2}`), Buffer.alloc(64)]),
    );
    const findings = scanOutputsReport({ root, env }).findings;
    expect(findings).toEqual([
      expect.objectContaining({
        where: `test-results/checks-item5/screenshot.png:byte ${head.length + 4}`,
        byte: head.length + 4,
        what: 'phone number of the Profile B entry in the credentials registry',
      }),
    ]);
  });

  test('a zip cut short (no central directory) is read from its local headers, with a warning', () => {
    const { root, env } = makeRoot();
    const whole = makeZip([
      { name: 'a.txt', data: lines('fine', 'fine') },
      { name: 'b.trace', data: lines('x', `{"value":"${PW1}"}`), deflate: true },
    ]);
    write(
      root,
      'test-results/killed/trace.zip',
      whole.subarray(0, whole.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]))),
    );
    write(
      root,
      'test-results/garbage/trace.zip',
      Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(40, 0xff)]),
    );
    const result = scanOutputsReport({ root, env });
    expect(result.findings.map((f) => f.where)).toEqual(['test-results/killed/trace.zip!b.trace:2']);
    expect(result.warnings.join('\n')).toContain('test-results/killed/trace.zip: malformed zip');
    expect(result.warnings.join('\n')).toContain('test-results/garbage/trace.zip: malformed zip');
  });
});

test.describe('what the redaction guard does not flag or never scans', () => {
  test('clean outputs pass: dates, timestamps, uuids, rates, hashes, placeholders, clean zips', () => {
    const { root, env } = makeRoot();
    write(
      root,
      'reports/verdicts/clean.json',
      JSON.stringify(
        {
          run: {
            label: 'A-monitor',
            companyId: 1001,
            batchDate: '2026-11-20',
            batchIds: ['XH-HIST-1001-20261120-D'],
          },
          at: '2026-11-20T08:30:00.000Z',
          startMs: 1763596800000,
          seconds: 1763596800,
          uuid: '123e4567-e89b-12d3-a456-426614174000',
          uuid2: 'a1381234-5678-4abc-9def-a13812345678',
          sha1: 'ff40e67869912f06fcc153effd10b9c310d01501',
          rate: 13.45678901234,
          share: 0.15912345678,
          counts: [13812, 1381234567, 138123456789],
          password: '',
          token: '***',
          passwd: '[REDACTED]',
          notes: ['login failed for company 1001', 'Bearer tokens are never logged', 'Cookie: none'],
        },
        null,
        2,
      ),
    );
    write(
      root,
      'playwright.log',
      lines('2026-11-20 08:30:00.123 [1763596800000] item 3 · pass', 'Running 12 tests using 2 workers'),
    );
    write(
      root,
      'test-results/unit/trace.zip',
      makeZip([
        {
          name: 'test.trace',
          data: lines('{"type":"before","callId":"call@12","startTime":1763596800000.125}'),
          deflate: true,
        },
        { name: 'src/ff40e67869912f06fcc153effd10b9c310d01501.ts', data: 'export const x = 1;\n' },
      ]),
    );
    write(
      root,
      'playwright-report/index.html',
      lines(
        `<script>window.r = "data:application/zip;base64,${makeZip([{ name: 'report.json', data: '{"ok":true}' }]).toString('base64')}";</script>`,
      ),
    );
    const result = scanOutputsReport({ root, env });
    expect(result.findings).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(result.filesScanned).toBe(4); // the registry under test-results is not one of them
    expect(result.secretsChecked).toBe(6);
  });

  test('never scanned: .auth, node_modules, .git, credentials files, .l1/demo; missing folders are fine', () => {
    const { root, env } = makeRoot();
    const leak = lines(`${P1} ${PW1} ${P3} ${PW3}`);
    write(root, '.auth/state.json', leak);
    write(root, 'test-results/node_modules/x/leak.txt', leak);
    write(root, 'reports/.git/leak.txt', leak);
    write(root, 'reports/credentials.local.json', leak);
    write(root, '.l1/demo/notes.log', leak);
    write(root, 'src-notes.txt', leak); // not an output folder
    const result = scanOutputsReport({
      root,
      env,
      extraPaths: [path.join(root, '.l1', 'demo'), 'does/not/exist'],
    });
    expect(result.findings).toEqual([]);
    expect(result.filesScanned).toBe(0);
  });

  test('a single-file report with megabytes of embedded base64 is scanned without overflowing the stack', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'l1-redaction-'));
    roots.push(root);
    // Allure's single-file report embeds its data as one quoted base64 literal and data: URIs of
    // several megabytes; the guard once overflowed V8's regexp stack on them.
    const blob = Buffer.alloc(6 * 1024 * 1024, 'report data ').toString('base64');
    write(
      root,
      'allure-report/index.html',
      `<script>const d = "${blob}";</script><img src="data:image/png;base64,${blob}">${blob}`,
    );
    write(root, 'suite.log', lines('ok', `typed ${PW1}`));
    const env = { L1_CREDENTIALS_JSON: JSON.stringify({ companies: { '7': { phone: P1, password: PW1 } } }) };
    expect(() => scanOutputsReport({ root, env }).findings).not.toThrow();
    expect(scanOutputsReport({ root, env }).findings.map((f) => f.where)).toEqual(['suite.log:2']);
  });

  test('credentials.local.json is the registry when no variable names one, and is never scanned', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'l1-redaction-'));
    roots.push(root);
    write(
      root,
      'credentials.local.json',
      JSON.stringify({ companies: { '7': { phone: P1, password: PW1 } } }),
    );
    write(root, 'suite.log', lines('ok', `typed ${PW1}`));
    expect(scanOutputsReport({ root, env: {} }).findings.map((f) => [f.where, f.what])).toEqual([
      ['suite.log:2', 'password of company 7 in the credentials registry'],
    ]);
    // L1_CREDENTIALS_JSON works the same way; no registry at all is quietly fine.
    const json = JSON.stringify({ companies: { '8': { phone: P2, password: PW2 } } });
    write(root, 'suite.log', lines(`typed ${PW2}`));
    fs.rmSync(path.join(root, 'credentials.local.json'));
    expect(
      scanOutputsReport({ root, env: { L1_CREDENTIALS_JSON: json } }).findings.map((f) => f.where),
    ).toEqual(['suite.log:1']);
    const none = scanOutputsReport({ root, env: {} });
    expect([none.findings, none.warnings, none.secretsChecked]).toEqual([[], [], 0]);
  });

  test('extra paths (option and L1_REDACTION_EXTRA_PATHS) and L1_ALLURE_RESULTS_DIR are scanned', () => {
    const { root, env } = makeRoot();
    const a = fs.mkdtempSync(path.join(os.tmpdir(), 'l1-redaction-extra-'));
    const b = fs.mkdtempSync(path.join(os.tmpdir(), 'l1-redaction-extra-'));
    const c = fs.mkdtempSync(path.join(os.tmpdir(), 'l1-redaction-allure-'));
    roots.push(a, b, c);
    write(a, 'output.log', lines(PW1));
    write(b, 'run/verdicts/x.json', lines(PW2));
    write(c, 'r-result.json', lines(P3));
    const { findings } = scanOutputsReport({
      root,
      env: { ...env, L1_REDACTION_EXTRA_PATHS: `${b}:`, L1_ALLURE_RESULTS_DIR: c },
      extraPaths: [a],
    });
    expect(findings.map((f) => f.file).sort()).toEqual(
      [
        path.join(a, 'output.log'),
        path.join(b, 'run', 'verdicts', 'x.json'),
        path.join(c, 'r-result.json'),
      ].sort(),
    );
  });

  test('short secrets: under 4 characters ignored, under 8 only between non-alphanumerics', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'l1-redaction-'));
    roots.push(root);
    const short = join('k9', 'x2z');
    const env = {
      L1_CREDENTIALS_JSON: JSON.stringify({ companies: { '1': { phone: join('1', '2'), password: short } } }),
    };
    write(root, 'a.log', lines(`xx${short}yy 12 312`, `pw="${short}"`));
    expect(scanOutputsReport({ root, env }).findings.map((f) => f.where)).toEqual(['a.log:2']);
  });

  test('a file over the size limit is scanned in windows: what a whole read finds, at the same places', () => {
    // The scale audit of 2026-11-26: a 307 MB single-file Allure report and a 251 MB history were
    // skipped with a warning, a planted secret unseen and the guard passed.
    const { root, env } = makeRoot();
    const b64 = (t: string) => Buffer.from(t).toString('base64');
    // An Allure single file's shape: one long line of d("path","base64") calls, one holding a secret.
    const calls = Array.from(
      { length: 40 },
      (_, i) =>
        `d("data/${i}.json","${b64(i === 23 ? `{"message":"login ${PW1}"}` : `{"n":${i},"name":"test ${i}"}`)}")`,
    );
    const text = lines(
      '<html><script>',
      calls.join(','),
      `<img src="data:image/png;base64,${b64(`png ${P3} png`)}">`,
      ...Array.from({ length: 30 }, (_, i) => `plain line ${i}`),
      `last: ${PW2}`,
    );
    write(root, 'allure-report/index.html', text);
    // A binary file: byte offsets.
    const video = Buffer.concat([Buffer.alloc(700), Buffer.from(` ${P_UNKNOWN} `), Buffer.alloc(300)]);
    write(root, 'test-results/big/video.webm', video);
    const whole = scanOutputsReport({ root, env });
    expect(whole.findings.map((f) => f.where)).toEqual([
      'allure-report/index.html:2 (embedded data, line 1)',
      'allure-report/index.html:3 (embedded data, line 1)',
      'allure-report/index.html:34',
      'test-results/big/video.webm:byte 701',
    ]);
    for (const maxFileBytes of [256, 300, 401, 512, 1000]) {
      const windows = scanOutputsReport({ root, env, maxFileBytes, overlapBytes: 48 });
      expect(windows.findings, `windows of ${maxFileBytes} bytes`).toEqual(whole.findings);
      expect(windows.unscanned).toEqual([]);
      expect(windows.filesScanned).toBe(2);
    }
    expectNoSecretIn(whole.findings);
  });

  test('windows find the same as a whole read on generated texts, secrets at every offset and in base64', () => {
    const { root, env } = makeRoot();
    const b64 = (t: string) => Buffer.from(t).toString('base64');
    // Pieces holding a secret are drawn by number, so that a counterexample never prints one.
    const secretPieces = [
      PW1,
      P3,
      ` ${P_UNKNOWN} `,
      `"password":"${PW2}"`,
      `?token=${join('abc', 'def', '123')}`,
      ...[PW1, P3, 'plain'].map((t) => `"${b64(`{"m":"${t}"}`)}"`),
      ...[PW3, 'plain'].map((t) => `data:text/plain;base64,${b64(`x ${t} y`)}`),
    ];
    const piece = fc.oneof(
      fc.constantFrom('\n', ' ', ',', '"', '=', 'AAAA', 'eyJ', '{"a":1}', 'data:'),
      fc.string({ maxLength: 30 }),
      fc.integer({ min: 0, max: secretPieces.length - 1 }),
    );
    const textOf = (pieces: (string | number)[]) =>
      pieces.map((p) => (typeof p === 'number' ? secretPieces[p]! : p)).join('');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 80 }), fc.integer({ min: 200, max: 900 }), (pieces, max) => {
        const file = write(root, 'test-results/gen/out.txt', textOf(pieces));
        const whole = scanOutputsReport({ root, env, extraPaths: [file] });
        const windows = scanOutputsReport({
          root,
          env,
          extraPaths: [file],
          maxFileBytes: max,
          overlapBytes: 48,
        });
        // node:assert inside the property, not Playwright's expect: each expect is a step of the
        // test, with a stack captured and every earlier step walked (quadratic in the steps).
        assert.deepEqual(windows.unscanned, []);
        assert.deepEqual(windows.findings, whole.findings);
      }),
      { numRuns: 200 },
    );
  });

  test('data nested deeper than it opens is unscanned (the guard fails), not a warning', () => {
    const { root, env } = makeRoot();
    const nest = (levels: number) => {
      let text = `login ${PW1}`;
      for (let i = 0; i < levels; i++) text = `v${i}="${Buffer.from(text).toString('base64')}"`;
      return text;
    };
    write(root, 'test-results/a/five.txt', lines(nest(5)));
    write(root, 'test-results/a/seven.txt', lines(nest(7)));
    const result = scanOutputsReport({ root, env });
    expect(result.findings.map((f) => f.file)).toEqual(['test-results/a/five.txt']);
    expect(result.unscanned).toEqual([
      expect.stringMatching(
        /^test-results\/a\/seven\.txt:1 \(embedded data, .*\): embedded data nested too deep, not opened$/,
      ),
    ]);
    expect(result.warnings).toEqual([]);
  });

  test('what cannot be read within the limit is unscanned, not skipped: a zip over it, a base64 run longer than a window', () => {
    const { root, env } = makeRoot();
    write(
      root,
      'blob-report/report.zip',
      Buffer.from(zipSync({ 'report.jsonl': Buffer.from('x'.repeat(600)) }, { level: 0 })),
    );
    write(
      root,
      'test-results/b/out.txt',
      `"${Buffer.from(`${'z'.repeat(600)} ${PW1}`).toString('base64')}"\n`,
    );
    const result = scanOutputsReport({ root, env, maxFileBytes: 256, overlapBytes: 32 });
    expect(result.unscanned).toEqual([
      expect.stringMatching(/^blob-report\/report\.zip: a zip, not scanned, .* is over the .* limit/),
      expect.stringMatching(
        /^test-results\/b\/out\.txt: base64 data longer than .* from byte \d+, not scanned from there$/,
      ),
    ]);
    expect(result.findings).toEqual([]);
  });
});

test.describe('the redaction guard opens archives and scans every output folder', () => {
  test('Playwright blob reports of CI shards: blob-report/*.zip and reports/**/blob/*.zip', () => {
    const { root, env } = makeRoot();
    const jsonl = (secret: string) =>
      lines('{"method":"onBegin","params":{}}', `{"method":"onStdOut","params":{"text":"login ${secret}"}}`);
    // as a library writes them: fflate's zipSync (sizes in the headers) ...
    write(root, 'blob-report/report.zip', Buffer.from(zipSync({ 'report.jsonl': Buffer.from(jsonl(PW1)) })));
    // ... and streamed with data descriptors (sizes after the data), as Playwright's yazl does
    write(
      root,
      'reports/ci/shards/2/blob/report-2.zip',
      streamedZip([['resources/0a1b2c.txt', lines('attachment', `phone ${P3}`)]]),
    );
    const result = scanOutputsReport({ root, env });
    expect(result.findings.map((f) => [f.where, f.entry, f.line, f.detector])).toEqual([
      ['blob-report/report.zip!report.jsonl:2', 'report.jsonl', 2, 'registry'],
      ['reports/ci/shards/2/blob/report-2.zip!resources/0a1b2c.txt:2', 'resources/0a1b2c.txt', 2, 'registry'],
    ]);
    expect(result.warnings).toEqual([]);
    expectNoSecretIn(result.findings);
  });

  test('a streamed zip cut short (a killed shard) is read from its local headers', () => {
    const { root, env } = makeRoot();
    const whole = streamedZip([
      ['report.jsonl', lines('{"method":"onBegin"}')],
      ['resources/9f.txt', lines('x', `password ${PW2}`)],
    ]);
    write(root, 'blob-report/report.zip', whole.subarray(0, whole.indexOf(Buffer.from([0x50, 0x4b, 1, 2]))));
    const result = scanOutputsReport({ root, env });
    expect(result.findings.map((f) => f.where)).toEqual(['blob-report/report.zip!resources/9f.txt:2']);
    expect(result.warnings).toEqual([
      expect.stringMatching(
        /^blob-report\/report\.zip: malformed zip \(.*\): 2 entries read from local headers/,
      ),
    ]);
  });

  test('an entry over the size limit is unscanned (the guard fails), an unreadable one a warning; neither hides another entry', () => {
    const { root, env } = makeRoot();
    write(
      root,
      'blob-report/report.zip',
      makeZip([
        { name: 'big.bin', data: 'a'.repeat(100_000), deflate: true }, // tiny in the zip, large inflated
        { name: 'odd.bin', data: `${PW1}`, method: 99 }, // a compression no reader knows
        { name: 'report.jsonl', data: lines('{}', `{"text":"${PW2}"}`), deflate: true },
      ]),
    );
    const result = scanOutputsReport({ root, env, maxFileBytes: 10_000 });
    expect(result.findings.map((f) => f.where)).toEqual(['blob-report/report.zip!report.jsonl:2']);
    expect(result.unscanned).toEqual([
      expect.stringMatching(/^blob-report\/report\.zip!big\.bin: not scanned, .* over the .* limit$/),
    ]);
    expect(result.warnings).toEqual([
      expect.stringMatching(/^blob-report\/report\.zip!odd\.bin: not readable \(.*99.*\)$/),
    ]);
  });

  test('allure-history lines (failure messages of past runs) are scanned, secret URL queries too', () => {
    const { root, env } = makeRoot();
    expect(OUTPUT_DIRS).toEqual(expect.arrayContaining(['allure-history', 'reports', 'test-results']));
    const token = join('tok', 'en-', '9f8e7d6c');
    const url = join('https://h/r?id=1&', 'token=', token);
    write(
      root,
      'allure-history/history.jsonl',
      lines(
        JSON.stringify({ uuid: 'h1', testResults: { a: { status: 'passed' } } }),
        JSON.stringify({ uuid: 'h2', testResults: { b: { message: `login failed for ${P2}` } } }),
        JSON.stringify({ uuid: 'h3', testResults: { c: { message: `ERR_TOO_MANY_REDIRECTS at ${url}` } } }),
        JSON.stringify({ uuid: 'h4', testResults: { d: { message: redactText(`at ${url}`) } } }),
        JSON.stringify({ uuid: 'h5', testResults: { e: { message: `at ${redactUrl(url)}` } } }),
      ),
    );
    const findings = scanOutputsReport({ root, env }).findings;
    expect(findings.map((f) => [f.where, f.detector, f.what])).toEqual([
      [
        'allure-history/history.jsonl:2',
        'registry',
        'phone number of the Profile B entry in the credentials registry',
      ],
      ['allure-history/history.jsonl:3', 'secret-query', 'URL query "token" with a value'],
    ]);
    expect(JSON.stringify(findings)).not.toContain(token);
  });

  test('a pre-signed URL’s credentials left in an output are found; a bundled script’s `&&t.credentials=` is code, not one', () => {
    const { root, env } = makeRoot();
    const signature = join('0a1b2c', '3d4e5f', '6a7b8c');
    const signed = join('https://cdn.test/r?companyId=1&X-Amz-Signature=', signature);
    write(
      root,
      'reports/verdicts/summary.md',
      lines(
        `report ${signed}`,
        `masked ${redactUrl(signed)}`,
        'if(e&&t.credentials==="include"&&t.credentials=n.mode)',
      ),
    );
    const findings = scanOutputsReport({ root, env }).findings;
    expect(findings.map((f) => [f.where, f.detector, f.what])).toEqual([
      ['reports/verdicts/summary.md:1', 'secret-query', 'URL query "X-Amz-Signature" with a value'],
    ]);
    expect(JSON.stringify(findings)).not.toContain(signature);
  });

  test('spec 5.3 "tokens are never written into a report": a servlet session in a redirect Location (`;jsessionid=…`), which the API client and the login quote in a run\'s reason, is masked, and one left unmasked in an output is found', async () => {
    const session = join('9F1C2B7A', '44E0D1C3', 'B2A1F0E9');
    const location = join('https://p.test/login;jsessionid=', session, '?from=api');
    const client = new PlatformClient({
      baseUrl: 'https://p.test',
      timeoutMs: 1000,
      retries: 0,
      backoffMs: 1,
      relogin: async () => {},
      context: () => ({
        get: async () => ({
          status: () => 302,
          headers: () => ({ location }),
          text: async () => '',
        }),
        dispose: async () => {},
      }),
    });
    const reason = await client.get('GET t', '/t', {}, z.unknown()).then(
      () => '',
      (e: Error) => e.message,
    );
    expect(reason).toContain('HTTP 302 (redirect to');
    const shown = redactText(reason);
    expect(shown).not.toContain(session);
    expect(shown).toContain('/login;jsessionid=***?from=api');
    expect(redactText(join('redirects to /login;jsessionid=', session, ': credentials were not sent'))).toBe(
      'redirects to /login;jsessionid=***: credentials were not sent',
    );
    const { root, env } = makeRoot();
    write(root, 'reports/verdicts/summary.md', lines(`reason ${reason}`, `masked ${shown}`, 'a;key=e.key'));
    const findings = scanOutputsReport({ root, env }).findings;
    expect(findings.map((f) => [f.where, f.detector, f.what])).toEqual([
      ['reports/verdicts/summary.md:1', 'secret-query', 'URL path parameter ";jsessionid" with a value'],
    ]);
    expect(JSON.stringify(findings)).not.toContain(session);
  });

  test("the guard's `;jsessionid=` is a session id, not bundled code that assigns a variable of that name (a minified script of a saved report or trace): code is no finding, and an id of Tomcat or Jetty beside it still is", () => {
    const tomcat = join('9F1C2B7A', '44E0D1C3', 'B2A1F0E9', '.node1');
    const jetty = join('node0', 'x2k9q1', 'abcdq7f', '.node0');
    const code = [
      'var a=1;jsessionid=getJsessionId(document.cookie);',
      'n.x=1;jsessionid=e.jsessionid}',
      'if(u)return;jsessionid=t.session_id,',
      'o=2;jsessionid=n.get1(t);',
      'o=3;jsessionid=sessionStore[0];',
    ];
    const { root, env } = makeRoot();
    write(root, 'reports/verdicts/app.js', code.join(''));
    write(
      root,
      'reports/verdicts/summary.md',
      lines(`a /app;jsessionid=${tomcat}`, `b /app;JSESSIONID=${jetty}?x=1`),
    );
    const findings = scanOutputsReport({ root, env }).findings;
    expect(findings.map((f) => f.where)).toEqual([
      'reports/verdicts/summary.md:1',
      'reports/verdicts/summary.md:2',
    ]);
  });

  test("PHP's session (`PHPSESSID`, in a query as PHP's trans-sid writes it, or as a path parameter beside `;jsessionid=`) is masked in a reason and found by the guard: neither word list held it (`sessid` is not `session`)", () => {
    const session = join('k3v9', 'q2m7', 'a8d1', 'f0s6');
    const query = `redirect to https://p.test/login?PHPSESSID=${session}&from=api`;
    const path = `redirect to /login;phpsessid=${session}`;
    expect(redactUrl(query)).not.toContain(session);
    expect(redactText(query)).toBe('redirect to https://p.test/login?PHPSESSID=***&from=api');
    expect(redactText(path)).toBe('redirect to /login;phpsessid=***');
    const { root, env } = makeRoot();
    write(root, 'reports/verdicts/summary.md', lines(query, path, redactText(query), redactText(path)));
    const findings = scanOutputsReport({ root, env }).findings;
    expect(findings.map((f) => f.where)).toEqual([
      'reports/verdicts/summary.md:1',
      'reports/verdicts/summary.md:2',
    ]);
    expect(JSON.stringify(findings)).not.toContain(session);
  });

  test('a secret query value in a URL written into HTML (`&amp;token=…`, `&#38;sig=…`), as an HTML report or page copy escapes it, is found by the guard as `&token=` is; the masked form is not', () => {
    const token = join('abc123', 'def456', 'ghi789');
    const { root, env } = makeRoot();
    write(
      root,
      'reports/verdicts/page.html',
      lines(
        `<a href="https://p.test/r?a=1&amp;token=${token}">`,
        `<a href="https://p.test/r?a=1&#38;sig=${token}">`,
        `<a href="https://p.test/r?a=1&amp;token=***">`,
      ),
    );
    // The masked form as summary.md escapes it for Markdown (\*\*\*), after an HTML-escaped &:
    // a reason quoting the page's URL is both, and the self-tests' guard failed on it (a night's
    // summary.md of a run whose URL carries a token, masked).
    write(
      root,
      'reports/verdicts/summary.md',
      lines(
        '- **r** · error · report page http&#58;//p.test/r?a=1&amp;token=\\*\\*\\*&amp;sig=\\*\\* did not load',
      ),
    );
    const findings = scanOutputsReport({ root, env }).findings;
    expect(findings.map((f) => [f.where, f.what])).toEqual([
      ['reports/verdicts/page.html:1', 'URL query "token" with a value'],
      ['reports/verdicts/page.html:2', 'URL query "sig" with a value'],
    ]);
    expect(JSON.stringify(findings)).not.toContain(token);
  });

  test('a secret query value after an `&` HTML wrote with leading zeros (`&#038;token=…`, as WordPress escapes a URL; `&#x0026;sig=…`) is found by the guard as `&amp;token=` is, and masked in a reason; the masked form is not', () => {
    // c87f924 read `&amp;`, `&#38;` and `&#x26;` alone: the same character reference with zeros
    // before its number passed the guard (review 59n).
    const token = join('abc123', 'def456', 'ghi789');
    const written = [
      `<a href="https://p.test/r?a=1&#038;token=${token}">`,
      `<a href="https://p.test/r?a=1&#x0026;sig=${token}">`,
    ];
    expect(written.map((w) => redactText(w)).join(' ')).not.toContain(token);
    const { root, env } = makeRoot();
    write(
      root,
      'reports/verdicts/page.html',
      lines(...written, `<a href="https://p.test/r?a=1&#038;token=***">`),
    );
    const findings = scanOutputsReport({ root, env }).findings;
    expect(findings.map((f) => [f.where, f.what])).toEqual([
      ['reports/verdicts/page.html:1', 'URL query "token" with a value'],
      ['reports/verdicts/page.html:2', 'URL query "sig" with a value'],
    ]);
  });

  test('a masked value (`***`, `\\*\\*\\*`) at the end of a line of a message written as JSON (`…?token=***\\n…`, an Allure result or a verdict file) is no finding; a value after the mask is', () => {
    // The masked test took the whole value up to a space or quote: JSON writes a newline as `\n`,
    // so `***\nnext` was not `***` and a masked URL ending a line of a message was a secret found.
    const token = join('abc123', 'def456', 'ghi789');
    const message = (url: string) => JSON.stringify({ message: `page ${url}\nnext line` });
    const { root, env } = makeRoot();
    write(
      root,
      'allure-results/r-result.json',
      lines(
        message(redactText(`https://p.test/r?a=1&token=${token}`)),
        message(markdownText(redactText(`https://p.test/r?sig=${token}`))),
        message(`https://p.test/r?token=***${token}`),
      ),
    );
    const findings = scanOutputsReport({ root, env }).findings;
    expect(findings.map((f) => [f.where, f.what])).toEqual([
      ['allure-results/r-result.json:3', 'URL query "token" with a value'],
    ]);
  });

  test('escapeRegExp: a pattern built from any text matches that text alone (the mask, the box route, the demo scenario names)', () => {
    const texts = ['.*+?^${}()|[]\\', 'p@ss.word+1', 'a.b', '(?:x)|y'];
    expect(texts.filter((t) => !new RegExp(`^${escapeRegExp(t)}$`).test(t))).toEqual([]);
    expect(new RegExp(`^${escapeRegExp('a.b')}$`).test('axb')).toBe(false);
    expect(new RegExp(`^${escapeRegExp('(?:x)|y')}$`).test('y')).toBe(false);
  });

  test('a secret HTML-escaped in a report page is found (one escaping helper for both sides)', () => {
    const { root, env } = makeRoot();
    expect(escapeHtml(PW1)).not.toBe(PW1);
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    write(
      root,
      'reports/summary.html',
      lines('<table>', `<tr><td>${escapeHtml(`reason: ${PW1}`)}</td></tr>`),
    );
    expect(scanOutputsReport({ root, env }).findings.map((f) => [f.where, f.what])).toEqual([
      ['reports/summary.html:2', 'password of company 1001 in the credentials registry, HTML-escaped'],
    ]);
  });

  test('cookie hashes are recorded as SHA-256 hex, each value once', () => {
    const { root } = makeRoot();
    expect(sha256('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    const state = write(
      root,
      '.auth/x.json',
      JSON.stringify({ cookies: [{ value: COOKIE }, { value: 'short' }, { value: COOKIE }] }),
    );
    recordCookieHashes(root, state);
    recordCookieHashes(root, state); // only new values are appended
    expect([...readCookieHashes(root)]).toEqual([sha256(COOKIE)]);
    expect(fs.readFileSync(path.join(root, '.l1/redaction/cookies.sha256'), 'utf8')).toBe(
      `${sha256(COOKIE)}\n`,
    );
  });
});

test('the CLI prints file:line and what, never the secret; exit 1 on findings, 0 when clean; --only scans the given paths alone', () => {
  const { root, env } = makeRoot();
  const childEnv: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, ...env };
  /** `npm run redaction -- ARGS` with the planted root's environment. */
  const scan = (...args: string[]) =>
    spawnSync(...tsScript(path.join(REPO, 'scripts', 'redaction-scan.ts'), args), {
      env: childEnv,
      encoding: 'utf8',
    });
  write(root, 'reports/verdicts/A.json', lines('{', `  "reason": "login failed for ${P1}"`, '}'));
  write(root, 'test-results/x/out.txt', lines(`login as ${P_UNKNOWN}`));
  const dirty = scan('--root', root);
  expect(dirty.status, dirty.stderr).toBe(1);
  expect(dirty.stdout).toContain(
    'reports/verdicts/A.json:2: phone number of company 1001 in the credentials registry\n',
  );
  expect(dirty.stdout).toContain(
    'test-results/x/out.txt:1: phone number (mainland China mobile pattern) 135****0246\n',
  );
  expect(dirty.stdout).toContain('redaction guard: 2 secrets found in 2 files');
  for (const s of ALL_SECRETS) expect(dirty.stdout + dirty.stderr).not.toContain(s);

  fs.rmSync(path.join(root, 'reports'), { recursive: true });
  fs.rmSync(path.join(root, 'test-results', 'x'), { recursive: true });
  write(root, 'test-results/y/out.txt', lines('all good on 2026-11-20'));
  const clean = scan('--root', root);
  expect(clean.status, clean.stdout + clean.stderr).toBe(0);
  expect(clean.stdout).toBe('redaction guard: 1 file scanned, no secret found\n');

  // --only: the given paths, not the default output folders (what one shard of the local pipeline wrote).
  write(root, 'test-results/z/out.txt', lines(`login as ${P_UNKNOWN}`));
  write(root, 'reports/local-pipeline/shards/1/verdicts/A.json', lines('{"status": "checked"}'));
  const shard = path.join(root, 'reports', 'local-pipeline', 'shards', '1');
  const only = scan('--root', root, '--only', shard);
  expect(only.status, only.stdout + only.stderr).toBe(0);
  expect(only.stdout).toBe('redaction guard: 1 file scanned, no secret found\n');
  const both = scan('--root', root, '--only', shard, path.join(root, 'test-results', 'z'));
  expect(both.status, both.stdout + both.stderr).toBe(1);
  expect(both.stdout).toContain('test-results/z/out.txt:1: phone number');
  const bare = scan('--root', root, '--only');
  expect(bare.status).toBe(2);
  expect(bare.stderr).toContain('--only needs the paths to scan');

  // What it cannot read fails it: a zip over the 200 MiB limit (sparse: no disk, no time).
  fs.rmSync(path.join(root, 'test-results', 'z'), { recursive: true });
  const big = write(root, 'blob-report/huge.zip', Buffer.from(zipSync({ 'a.txt': Buffer.from('a') })));
  fs.truncateSync(big, 201 * 1024 * 1024);
  const unread = scan('--root', root);
  expect(unread.status, unread.stdout + unread.stderr).toBe(1);
  expect(unread.stdout).toMatch(
    /^blob-report\/huge\.zip: a zip, not scanned, 201 MiB is over the 200 MiB limit \(a zip is read whole\)\nredaction guard: 2 files scanned, no secret found, but 1 thing it could not read \(above\): /,
  );
});

test.describe('secrets from any source are masked before they leave the suite (README.md § Security and limits)', () => {
  test('redactText: URL userinfo, query and fragment secrets, and mobile numbers wherever they sit', () => {
    const text = join(
      'page.goto: net::ERR at https://qa:',
      PW2,
      '@reports.test/r/1?topic=T1&token=abc123#access_token=xyz789&view=2 (account ',
      P_UNKNOWN,
      ', id 20251117, batch L1M-101101-20251117-01)',
    );
    const masked = redactText(text);
    expect(masked).toBe(
      'page.goto: net::ERR at https://***@reports.test/r/1?topic=T1&token=***#access_token=***&view=2 (account 1**********, id 20251117, batch L1M-101101-20251117-01)',
    );
    expect(redactUrl(join('https://u:', PW2, '@h.test/x#id_token=abc&x=1'))).toBe(
      'https://h.test/x#id_token=***&x=1',
    );
  });

  test('redactText: a mobile number with its country code or grouped 3-4-4 is masked as the bare one is (review of 2026-11-28: "+86 138 0013 8000" and "138-0013-8000" went out in labels and reasons); near misses: dates, times, batch and project ids, twelve digits, a version', () => {
    const digits = P_UNKNOWN;
    const grouped = `${digits.slice(0, 3)} ${digits.slice(3, 7)} ${digits.slice(7)}`;
    const dashed = `${digits.slice(0, 3)}-${digits.slice(3, 7)}-${digits.slice(7)}`;
    for (const phone of [`+86 ${grouped}`, `+86${digits}`, `86${digits}`, `0086-${dashed}`, dashed, grouped])
      expect(redactText(`account ${phone}, retry`), phone).toBe('account 1**********, retry');
    const kept =
      'rows 150 2025-11-17, at 13:45:12, batch L1M-101101-20251117-01, project 131234-2025, 123800138000, v1.13800138000';
    expect(redactText(kept)).toBe(kept);
  });

  test('a grouped mobile number has one separator, the same twice, and nothing joined to it: a batch id of a three-digit project and a compact date, a label, a UUID are no phone, in a text or a file name (review of ba2508d: XH-HIST-150-20251110-D went out as XH-HIST-1**********-D); a bare number ending a sentence is masked, as the guard finds it', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 130, max: 199 }),
        fc.date({ min: new Date('2020-01-01'), max: new Date('2030-12-31'), noInvalidDate: true }),
        (project, day) => {
          const ymd = day.toISOString().slice(0, 10).replace(/-/g, '');
          for (const id of [
            `XH-HIST-${project}-${ymd}-D`,
            `L1M-${project}-${ymd}-01`,
            `shop-${project}-${ymd}`,
          ]) {
            assert.equal(redactText(`batch ${id}: no rows`), `batch ${id}: no rows`);
            assert.equal(fileKeyOf(id), id);
          }
        },
      ),
    );
    const uuid = 'f0e2a150-1234-4567-8901-abcdef123456';
    expect(redactText(`result ${uuid}`)).toBe(`result ${uuid}`);
    expect(redactText(`account ${P_UNKNOWN}.`)).toBe('account 1**********.');
    const grouped = `${P_UNKNOWN.slice(0, 3)} ${P_UNKNOWN.slice(3, 7)} ${P_UNKNOWN.slice(7)}`;
    expect(fileKeyOf(`acme +86 ${grouped}`)).toMatch(/^acme-1x{10}-[0-9a-f]{8}$/);
    expect(fileKeyOf(`acme-${grouped.replace(/ /g, '-')}-monitor`)).toMatch(
      /^acme-1x{10}-monitor-[0-9a-f]{8}$/,
    );
  });

  test('redactText keeps the punctuation a message puts after a URL masked already, and masks whatever else follows ***', () => {
    const url = redactUrl(join('http://h.test/r?topic=1&token=', PW2));
    expect(redactText(`report page ${url}: report page did not load`)).toBe(
      'report page http://h.test/r?topic=1&token=***: report page did not load',
    );
    expect(redactText(`report page DATA (${url}) does not match`)).toBe(
      'report page DATA (http://h.test/r?topic=1&token=***) does not match',
    );
    // Near misses: a value not masked before loses the punctuation with it (masking more is safe),
    // and text after *** that is not punctuation alone is masked.
    expect(redactText(join('at http://h.test/r?token=', PW2, '): x'))).toBe('at http://h.test/r?token=*** x');
    expect(redactText(join('at http://h.test/r?token=***', PW2, ' x'))).toBe(
      'at http://h.test/r?token=*** x',
    );
    expect(redactText(join('at http://h.test/r?token=***:', PW2, ' x'))).toBe(
      'at http://h.test/r?token=*** x',
    );
  });

  test('redactUrl (verdict files, notes: spec 1.5, docs/contract.md §3): text it cannot parse is masked after ? and #, and its userinfo', () => {
    // A URL with a space, and one without its scheme (it would parse with the scheme `admin:`).
    const unparsable = join(
      'p.example.com /monitor/2026-01-09?companyId=7&token=',
      PW2,
      '&account=',
      P_UNKNOWN,
    );
    expect(redactUrl(unparsable)).toBe('p.example.com /monitor/2026-01-09?***');
    expect(redactUrl(join('admin:', PW2, '@p.example.com/r#k=', PW2))).toBe('***@p.example.com/r#***');
    expect(redactUrl(join('p.example.com:8443/', P_UNKNOWN, '/r'))).toBe('p.example.com:8443/1**********/r');
    expect(redactUrl('not a url')).toBe('not a url');
  });

  test('a JSON web token is masked by its shape, whatever its parameter is called (`jwt=`, `state=`), in a URL and in any text: the guard finds it so', () => {
    const jwt = join('eyJhbGciOiJIUzI1NiJ9', '.', 'eyJzdWIiOiIxMDAxIn0', '.', 'c2lnbmF0dXJlLXBhcnQ');
    expect(redactUrl(`https://h.test/r?topic=T1&jwt=${jwt}&view=2#state=${jwt}`)).toBe(
      'https://h.test/r?topic=T1&jwt=***&view=2#state=***',
    );
    expect(redactText(`page.goto: net::ERR at https://h.test/r/${jwt}/x (bearer-less ${jwt})`)).toBe(
      'page.goto: net::ERR at https://h.test/r/***/x (bearer-less ***)',
    );
    // What is not one stays: two parts, or parts too short.
    for (const kept of ['eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMDAxIn0', 'eyJabcdefgh.eyJabcdefgh.abcdefg'])
      expect(redactText(`?x=${kept}`)).toBe(`?x=${kept}`);
  });

  test('redactUrl: a query or fragment value that is a mobile number is masked whatever its name, also as +86 / 86', () => {
    const url = (value: string) => join('https://h.test/r?account=', value, '&pass=x&companyId=7');
    expect(redactUrl(url(P_UNKNOWN))).toBe('https://h.test/r?account=***&pass=x&companyId=7');
    expect(redactUrl(url(join('%2B86', P_UNKNOWN)))).toBe('https://h.test/r?account=***&pass=x&companyId=7');
    expect(redactUrl(url(join('86', P_UNKNOWN)))).toBe('https://h.test/r?account=***&pass=x&companyId=7');
    expect(redactUrl(join('https://h.test/r#user=', P_UNKNOWN, '&view=2'))).toBe(
      'https://h.test/r#user=***&view=2',
    );
    // In the path, the number is masked as redactText masks it; other digits stay.
    expect(redactUrl(join('https://h.test/u/', P_UNKNOWN, '/20251117?id=12345678901234'))).toBe(
      'https://h.test/u/1**********/20251117?id=12345678901234',
    );
  });

  test('SecretMask: the registry values and the sessions cookie values, in every form, before the URL rules', () => {
    const { root, env } = makeRoot();
    const auth = path.join(root, '.l1', 'state', 'invocations', 'x', 'auth');
    const mask = new SecretMask(root, { env, authDirs: [auth] });
    const message = (cookie: string) =>
      join('API error code 500: 账号 ', P1, ' 密码 ', PW1, ' (', encodeURIComponent(PW2), ') 会话 ', cookie);
    // The session appears once the run logged in: the mask reads the auth folder again.
    expect(mask.mask(message(COOKIE_URL))).toBe(
      `API error code 500: 账号 *** 密码 *** (***) 会话 ${COOKIE_URL}`,
    );
    write(auth, 'login.json', JSON.stringify({ cookies: [{ name: 'l1_session', value: COOKIE_URL }] }));
    expect(mask.mask(message(COOKIE_URL))).toBe('API error code 500: 账号 *** 密码 *** (***) 会话 ***');
  });

  test('SecretMask masks all that redactText masks: a grouped mobile number in no registry and a JSON web token, which hold no = or @ (leak audit of 2026-11-28)', () => {
    const { root, env } = makeRoot();
    const mask = new SecretMask(root, { env });
    const [a, b, c] = ['135', '2468', '0246'];
    const jwt = join('eyJhbGciOiJIUzI1NiJ9', '.', 'eyJzdWIiOiIxMDAxIn0', '.', 'c2lnbmF0dXJlLXBhcnQ');
    const texts = [
      `客服 ${[a, b, c].join(' ')}`,
      `客服 ${[a, b, c].join('-')}`,
      `客服 +86 ${[a, b, c].join(' ')}`,
      `客服 ${[a, b, c].join('\u00a0')}`,
      `会话 ${jwt} 已失效`,
    ];
    expect(texts.map((t) => mask.mask(t))).toEqual(texts.map((t) => redactText(t)));
    expect(mask.maskDeep({ words: texts })).toEqual({ words: texts.map((t) => redactText(t)) });
    expect(texts.map((t) => mask.mask(t)).join(' ')).not.toMatch(/0246|IxMDAxIn0/);
  });

  test('SecretMask never forgets a session: the teardown removes auth/ before the list reporter prints the failures (README.md § Security and limits)', () => {
    const { root, env } = makeRoot();
    const auth = path.join(root, '.l1', 'state', 'invocations', 'x', 'auth');
    const mask = new SecretMask(root, { env, authDirs: [auth] });
    write(auth, 'login.json', JSON.stringify({ cookies: [{ name: 'l1_session', value: COOKIE_URL }] }));
    expect(mask.mask(`会话 ${COOKIE_URL}`)).toBe('会话 ***');
    fs.rmSync(auth, { recursive: true, force: true });
    expect(mask.mask(`  1) run x › item 5: ${COOKIE_URL}`)).toBe('  1) run x › item 5: ***');
  });

  test("SecretMask knows the runs' URL secrets, also lowercased as a host name writes them (docs/contract.md §3)", () => {
    const { root, env } = makeRoot();
    const token = join('Tk9', 'xQ7vR', 'zZ81mW');
    const mask = new SecretMask(root, {
      env,
      urls: [
        `https://h.test/r/101/monitor/2025-11-17?companyId=1001&token=${token}`,
        `https://${join('us', 'er')}:${join('pa', 'ss', 'word9')}@p.test/platform?projectId=101`,
      ],
    });
    // A page that wrote the token into a host: the box names the blocked origin in the run's notes.
    const note = `1 request blocked: http://${token.toLowerCase()}.evil.invalid (L1_PAGE_ORIGINS)`;
    expect(mask.mask(note)).toBe('1 request blocked: http://***.evil.invalid (L1_PAGE_ORIGINS)');
    expect(mask.mask(`DATA.meta.topic = "${token}"`)).toBe('DATA.meta.topic = "***"');
    expect(mask.mask(`brand ${join('pa', 'ss', 'word9')}`)).toBe('brand ***');
    // A secret of the URL's own parameters is not one (the company, the project stay readable).
    expect(mask.mask('companyId 1001, projectId 101')).toBe('companyId 1001, projectId 101');
  });

  test("SecretMask.maskDeep: every string and key of a judged run, whatever the platform put where (a password as a competitor's name, a cookie as a word)", () => {
    const { root, env } = makeRoot();
    const auth = path.join(root, 'auth');
    write(auth, 'login.json', JSON.stringify({ cookies: [{ name: 'l1_session', value: COOKIE_URL }] }));
    const mask = new SecretMask(root, { env, authDirs: [auth] });
    const judged = {
      status: 'checked',
      items: {
        5: {
          steps: [{ mismatches: [{ html: PW1, platform: 'x', gap: 0.1 }] }],
          notes: [`word ${COOKIE_URL}`],
        },
      },
      parsed: { words: { [COOKIE_URL]: 3, 品质: 2 }, rates: [31.4, null, true] },
    };
    expect(mask.maskDeep(judged)).toEqual({
      status: 'checked',
      items: {
        5: { steps: [{ mismatches: [{ html: '***', platform: 'x', gap: 0.1 }] }], notes: ['word ***'] },
      },
      parsed: { words: { '***': 3, 品质: 2 }, rates: [31.4, null, true] },
    });
    expect(JSON.stringify(judged)).toContain(COOKIE_URL); // the value judged is left as it came
  });

  test("the judged run as the collector masks it (fixtures/collector.ts SUITE_WRITTEN): the suite's own fields kept, a source title from the platform masked", () => {
    const { root, env } = makeRoot();
    const mask = new SecretMask(root, { env });
    const judged = {
      run: { label: 'A-monitor', batchDate: '2025-11-17', reportType: 'monitor' },
      status: 'checked',
      items: {
        11: {
          title: 'related sources: title, channel, cited count',
          verdict: 'fail',
          steps: [{ verdict: 'fail', mismatches: [{ title: `来源 ${PW1}`, html: 3, platform: 2 }] }],
        },
      },
    };
    const masked = mask.maskDeep(judged, SUITE_WRITTEN);
    expect(masked.items[11].steps[0]!.mismatches[0]!.title).toBe('来源 ***');
    expect({ ...masked, items: {} }).toEqual({ ...judged, items: {} });
    expect(masked.items[11].verdict).toBe('fail');
  });

  test('SecretMask.maskDeep: a hostile nesting is cut, not a stack overflow; a `__proto__` key stays a key', () => {
    const { root, env } = makeRoot();
    const mask = new SecretMask(root, { env });
    let deep: unknown = 'bottom';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    const masked = mask.maskDeep({ rows: [{ title: 't', url: deep }] }) as { rows: { url: unknown }[] };
    expect(JSON.stringify(masked).length).toBeLessThan(1000);
    expect(JSON.stringify(masked)).toContain('nested deeper than 64 levels');
    const proto = mask.maskDeep(JSON.parse('{"__proto__": {"polluted": 1}, "a": 2}') as object);
    expect(Object.keys(proto)).toEqual(['__proto__', 'a']);
    expect((proto as { polluted?: number }).polluted).toBeUndefined();
  });

  test('SecretMask: a short secret (under 8 characters) only between non-alphanumerics, as the guard finds it; JSON-escaped forms too', () => {
    const { root, env } = makeRoot();
    const mask = new SecretMask(root, {
      env,
      urls: ['https://h.test/r/101/monitor/2025-11-17?companyId=1001&sign=2025&key=html'],
    });
    // A URL value under 8 characters is no secret to mask in data: the batch date stays.
    expect(mask.mask('batch date 2025-11-17, dataSource html')).toBe(
      'batch date 2025-11-17, dataSource html',
    );
    // A password with a quote and a backslash, as a JSON text on the console shows it.
    expect(mask.mask(JSON.stringify({ brand: PW1 }))).toBe('{"brand":"***"}');
    // A short registry value is masked only standing alone, as the guard finds it.
    const short = join('ab', '12');
    const registry = path.join(root, 'short.json');
    fs.writeFileSync(registry, JSON.stringify({ companies: { 7: { phone: P1, password: short } } }));
    const shortMask = new SecretMask(root, { env: { L1_CREDENTIALS_FILE: registry } });
    expect(shortMask.mask(`brand ${short}, brand x${short}y, ${short}-2`)).toBe(
      'brand ***, brand x' + short + 'y, ***-2',
    );
    // What the suite wrote and a schema checks is kept: a verdict equal to a short password stays.
    const verdictWord = 'pass';
    const passMask = new SecretMask(root, {
      env: { L1_CREDENTIALS_FILE: path.join(root, 'pass.json') },
    });
    fs.writeFileSync(
      path.join(root, 'pass.json'),
      JSON.stringify({ companies: { 7: { phone: P1, password: verdictWord } } }),
    );
    expect(
      passMask.maskDeep(
        { verdict: verdictWord, notes: [`${verdictWord} by tie swap`] },
        new Set(['verdict']),
      ),
    ).toEqual({ verdict: verdictWord, notes: ['*** by tie swap'] });
  });
});

/**
 * A linear search gives what the regular expression it stands for gives, on 3,000 texts joined from
 * `pieces` (the regex itself overflowed V8's stack on the megabytes of base64 of a single-file
 * report; on short texts it is the reference). node:assert, not expect: 3,000 steps of a test cost
 * Playwright seconds.
 */
function expectSameAsRegex(
  pieces: string[],
  search: (text: string) => unknown,
  regex: (text: string) => unknown,
) {
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 60 }), (parts) => {
      const text = parts.join('');
      assert.deepEqual(search(text), regex(text));
    }),
    { numRuns: 3000 },
  );
}

test.describe('the quoted base64 search (lib/redaction/search.ts base64Literals)', () => {
  // With a back-reference to the opening quote.
  const LITERAL = /(["'])([A-Za-z0-9+/]{24,}={0,2})\1/g;

  test('finds exactly what the regex finds, on generated text made of quotes, base64 and padding', () => {
    expectSameAsRegex(
      [
        '"',
        "'",
        '=',
        'A',
        'z',
        '0',
        '+',
        '/',
        ' ',
        'x-',
        'QUJDREVGR0hJSktMTU5PUFFSU1RVVldY',
        'QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo',
      ],
      (text) => [...base64Literals(text)],
      (text) => [...text.matchAll(LITERAL)].map((m) => ({ start: m.index, data: m[2]! })),
    );
  });
});

test.describe('the JSON web token search (lib/redaction/jwt.ts jwtMatches)', () => {
  const byRegex = (text: string) =>
    [...text.matchAll(JWT)].map((m) => ({ start: m.index, end: m.index + m[0].length }));

  test('finds exactly what the regex finds, on generated text made of the pieces a token is made of', () => {
    expectSameAsRegex(
      ['eyJ', '.', 'a', 'Z', '0', '_', '-', '+', '/', ' ', 'abcdefgh', 'eyJabcdefgh.'],
      jwtMatches,
      byRegex,
    );
  });

  test('tokens next to each other, in runs, at the edges; near-misses with a short part', () => {
    const jwt = ['eyJhbGciOiJIUzI1NiJ9', 'eyJzdWIiOiIxMDAxIn0', 'c2lnbmF0dXJlLXBhcnQ'].join('.');
    for (const text of [
      jwt,
      `x${jwt}`,
      `${jwt}.${jwt}`,
      `eyJabc.${jwt}`,
      `eyJabcdefgh.eyJabc.${jwt}`,
      `${jwt.slice(0, -12)}`,
      'eyJabcdefgh.eyJabcdefgh.abcdefg',
      `%22${jwt}%22`,
    ]) {
      expect(jwtMatches(text), text).toEqual(byRegex(text));
    }
    expect(jwtMatches(`a ${jwt} b`)).toEqual([{ start: 2, end: 2 + jwt.length }]);
    expect(jwtMatches('eyJabcdefgh.eyJabcdefgh.abcdefg')).toEqual([]);
  });

  test('a long base64 run full of eyJ is read in one pass (the regex took seconds on such text)', () => {
    // 2 MB of base64url with an `eyJ` every 64 characters and no ".": the regex reads the rest of
    // the run again for each of its 32,768 `eyJ`s; the search reads it once. Counted, not timed:
    // one indexOf finds the first `eyJ`, the next starts after the run and finds nothing.
    const text = 'eyJ'.padEnd(64, 'A').repeat(32_768);
    const searches: number[] = [];
    const indexOf = String.prototype.indexOf;
    String.prototype.indexOf = function (this: string, search: string, position?: number) {
      searches.push(position ?? 0);
      return indexOf.call(this, search, position);
    };
    let found;
    try {
      found = jwtMatches(text);
    } finally {
      String.prototype.indexOf = indexOf;
    }
    expect(found).toEqual([]);
    expect(searches).toEqual([0, text.length]);
  });
});

test.describe('what the mutation sweep of lib/redaction found unpinned (2026-11-28)', () => {
  test('a short secret (under 8 characters) is found only standing alone: "0", "9", "A", "Z", "a", "z" beside it join it to a word, "/", ":", "@", "[", "`", "{" do not (docs/decisions.md "a secret under 8 characters is masked only standing alone, as the guard finds it")', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'l1-redaction-'));
    roots.push(root);
    const short = join('k9', 'x2z');
    const env = {
      L1_CREDENTIALS_JSON: JSON.stringify({ companies: { '1': { phone: join('1', '2'), password: short } } }),
    };
    const joined = ['0', '9', 'A', 'Z', 'a', 'z'].flatMap((c) => [`${c}${short}-`, `-${short}${c}`]);
    const alone = ['/', ':', '@', '[', '`', '{'].map((c) => `${c}${short}${c}`);
    write(root, 'a.log', lines(...joined, ...alone));
    expect(scanOutputsReport({ root, env }).findings.map((f) => f.where)).toEqual(
      alone.map((_, i) => `a.log:${joined.length + i + 1}`),
    );
  });

  test("a recorded session cookie value is found in any token that holds it: after a separator in a run longer than a browser keeps, as the last part after more than 16 separators, and 4096 characters long, a browser's largest (README § Security and limits: session cookie values the suite saw)", () => {
    const { root, env } = makeRoot();
    const longest = 'k7Q-'.repeat(1024);
    write(
      root,
      '.l1/redaction/cookies.sha256',
      [sha256(COOKIE_URL), sha256(longest)].map((h) => `${h}\n`).join(''),
    );
    const parts = Array.from({ length: 17 }, (_, i) => `p${i}`);
    write(
      root,
      'test-results/cookies/stdout.txt',
      lines(
        'fine',
        `blob ${'A'.repeat(5000)}.${COOKIE_URL} end`,
        `path ${parts.join('.')}.${COOKIE_URL} end`,
        `cookie ${longest} end`,
      ),
    );
    const findings = scanOutputsReport({ root, env }).findings;
    expect(findings.map((f) => [f.line, f.detector])).toEqual([
      [2, 'cookie-hash'],
      [3, 'cookie-hash'],
      [4, 'cookie-hash'],
    ]);
  });

  test("a cookie header whose value is masked (`Cookie: sid=************`, a HAR header list's `sid=xxxxxxxxxxxx`) is no finding, as a masked JSON key is not; an unmasked one beside it is (README § Security and limits: a false alarm fails the night)", () => {
    const { root, env } = makeRoot();
    write(
      root,
      'test-results/har/error-context.md',
      lines(
        `Cookie: sid=${'*'.repeat(12)}`,
        `{"headers":[{"name":"set-cookie","value":"sid=${'x'.repeat(12)}"}]}`,
        `Cookie: sid=${join('0123456789', 'abcdef')}`,
      ),
    );
    expect(scanOutputsReport({ root, env }).findings.map((f) => [f.line, f.detector])).toEqual([
      [3, 'cookie-header'],
    ]);
  });

  test('a zip entry of exactly the size limit is read, from the central directory and from the local headers of a zip cut short: only one over the limit is unscanned (README § Security and limits: "a zip or a zip entry over the limit")', () => {
    const { root, env } = makeRoot();
    const limit = 10_000;
    const head = `x\npassword ${PW1}\n`;
    const data = head + 'a'.repeat(limit - Buffer.byteLength(head));
    const whole = makeZip([{ name: 'at-limit.txt', data, deflate: true }]);
    write(root, 'blob-report/whole.zip', whole);
    write(root, 'blob-report/cut.zip', whole.subarray(0, whole.indexOf(Buffer.from([0x50, 0x4b, 1, 2]))));
    const result = scanOutputsReport({ root, env, maxFileBytes: limit });
    expect(result.findings.map((f) => f.where)).toEqual([
      'blob-report/cut.zip!at-limit.txt:2',
      'blob-report/whole.zip!at-limit.txt:2',
    ]);
    expect(result.unscanned).toEqual([]);
  });

  test('overlapping matches: the more specific one alone (a JSON web token as a `?token=` value is the query), two of the same rank both (a JSON "token" holding a bearer token) (lib/redaction/detectors.ts RANK: "only the most specific one (lowest rank) is reported")', () => {
    const { root, env } = makeRoot();
    const jwt = join('eyJhbGciOiJIUzI1NiJ9', '.', 'eyJzdWIiOiIxMDAxIn0', '.', 'c2lnbmF0dXJlLXBhcnQ');
    write(
      root,
      'test-results/overlap/error-context.md',
      lines(`url https://h/x?token=${jwt}`, `{"token":"Bearer ${join('abc123DEF456', 'ghi789')}"}`),
    );
    expect(scanOutputsReport({ root, env }).findings.map((f) => [f.line, f.detector])).toEqual([
      [1, 'secret-query'],
      [2, 'bearer'],
      [2, 'json-secret-key'],
    ]);
  });

  test("findings are listed by file, then zip entry, then line: an entry's secret at line 3 before a later entry's at line 1 (lib/redaction/findings.ts compareFindings)", () => {
    const { root, env } = makeRoot();
    write(
      root,
      'blob-report/report.zip',
      makeZip([
        { name: 'b.txt', data: lines(`password ${PW2}`) },
        { name: 'a.txt', data: lines('x', 'y', `password ${PW2}`) },
      ]),
    );
    expect(scanOutputsReport({ root, env }).findings.map((f) => f.where)).toEqual([
      'blob-report/report.zip!a.txt:3',
      'blob-report/report.zip!b.txt:1',
    ]);
  });

  test('SecretMask at its shortest: a 4-character password that is the whole text is masked; with nothing known, a text is left as it is (`undefined` too) (docs/decisions.md: "a secret under 8 characters is masked only standing alone")', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'l1-redaction-'));
    roots.push(root);
    const short = join('ab', '12');
    const registry = write(
      root,
      'short.json',
      JSON.stringify({ companies: { 7: { phone: P1, password: short } } }),
    );
    const mask = new SecretMask(root, { env: { L1_CREDENTIALS_FILE: registry } });
    expect([mask.mask(short), mask.maskDeep({ brand: short })]).toEqual(['***', { brand: '***' }]);
    const nothing = new SecretMask(root, { env: {} });
    expect(nothing.mask('undefined is not a function')).toBe('undefined is not a function');
  });

  test('SecretMask learns the session cookies of 8 characters or more, as the guard records them, not a shorter one (lib/redaction/seen-cookies.ts MIN_COOKIE_VALUE: "shorter ones are not searched either")', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'l1-redaction-'));
    roots.push(root);
    const auth = path.join(root, 'auth');
    const [eight, seven] = [join('Zq8w', 'Rt4y'), join('Lg7', 'kP2v')];
    write(
      auth,
      'login.json',
      JSON.stringify({
        cookies: [
          { name: 'sid', value: eight },
          { name: 'tz', value: seven },
        ],
      }),
    );
    const mask = new SecretMask(root, { env: {}, authDirs: [auth] });
    expect(mask.mask(`session ${eight}, zone ${seven}`)).toBe(`session ***, zone ${seven}`);
  });

  test('SecretMask.maskDeep keeps 64 levels of nesting, arrays as objects, and cuts the 65th (docs/decisions.md: "inputs nested deeper than 64 levels are cut")', () => {
    const { root, env } = makeRoot();
    const mask = new SecretMask(root, { env });
    const nest = (levels: number, wrap: (v: unknown) => unknown) =>
      Array.from({ length: levels }).reduce<unknown>((v) => wrap(v), 'bottom');
    const arrays = nest(64, (v) => [v]);
    const objects = nest(64, (v) => ({ a: v }));
    expect([mask.maskDeep(arrays), mask.maskDeep(objects)]).toEqual([arrays, objects]);
    expect(JSON.stringify(mask.maskDeep(nest(65, (v) => [v])))).toContain('nested deeper than 64 levels');
    expect(JSON.stringify(mask.maskDeep(nest(65, (v) => ({ a: v }))))).toContain(
      'nested deeper than 64 levels',
    );
  });

  test('a data: URI is opened at the very start of a file and with as little as 8 base64 characters (6 bytes, room for a 4-character password whose base64 is no search form): a phone in no registry and a short password are found inside (README § Security and limits: "embedded base64")', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'l1-redaction-'));
    roots.push(root);
    const short = join('ab', '12');
    const env = {
      L1_CREDENTIALS_JSON: JSON.stringify({ companies: { '1': { phone: P1, password: short } } }),
    };
    const uri = (text: string) => `data:text/plain;base64,${Buffer.from(text).toString('base64')}`;
    write(root, 'test-results/a/first.txt', lines(uri(`phone ${P_UNKNOWN}`)));
    write(root, 'test-results/b/short.txt', lines('x', `src=${uri(` ${short} `)}`));
    expect(scanOutputsReport({ root, env }).findings.map((f) => [f.where, f.detector])).toEqual([
      ['test-results/a/first.txt:1 (embedded data, line 1)', 'phone-pattern'],
      ['test-results/b/short.txt:2 (embedded data, line 1)', 'registry'],
    ]);
  });

  test('a quoted base64 literal of exactly 24 characters is one, of 23 not (lib/redaction/search.ts base64Literals: "at least 24 characters")', () => {
    const [b24, b23] = ['QUJDREVGR0hJSktMTU5PUFFS', 'QUJDREVGR0hJSktMTU5PUFF'];
    expect([...base64Literals(`x "${b24}" y '${b23}' z`)]).toEqual([{ start: 2, data: b24 }]);
  });

  test('windows of a limit smaller than four times the overlap read to the end of the file: the overlap is cut to a quarter of the limit (README § Security and limits: read in windows, "it never passes what it did not read")', () => {
    const { root, env } = makeRoot();
    write(
      root,
      'test-results/long/stdout.txt',
      lines(...Array.from({ length: 2000 }, () => 'fine'), `password ${PW2}`),
    );
    const result = scanOutputsReport({ root, env, maxFileBytes: 4096 }); // the default overlap: 64 KiB
    expect(result.findings.map((f) => f.where)).toEqual(['test-results/long/stdout.txt:2001']);
    expect(result.unscanned).toEqual([]);
  });

  test('a file the guard cannot read (EIO: `/proc/self/mem` named as an extra path) is unscanned, naming why, which fails the guard (README § Security and limits: "a file or folder it may not read fails the guard, as a secret would, naming the file and why")', () => {
    const { root, env } = makeRoot();
    const result = scanOutputsReport({ root, env, extraPaths: ['/proc/self/mem'] });
    expect(result.unscanned).toEqual([expect.stringMatching(/\/mem: cannot read \(EIO\)$/)]);
  });

  test('windows cut at a newline (the next window starts with it) give the lines a whole read gives: a password planted after 40 and 71 lines, windows of 100 to 105 bytes (README § Security and limits: "the windows find what one whole read finds, at the same lines")', () => {
    const { root, env } = makeRoot();
    const text = lines(
      ...Array.from({ length: 40 }, () => '--------'),
      `password ${PW2}`,
      ...Array.from({ length: 30 }, () => '--------'),
      `again ${PW2}`,
    );
    write(root, 'test-results/edge/stdout.txt', text);
    const whole = scanOutputsReport({ root, env }).findings.map((f) => f.where);
    const limits = [100, 101, 102, 103, 104, 105];
    const windowed = limits.map((maxFileBytes) =>
      scanOutputsReport({ root, env, maxFileBytes, overlapBytes: 10 }).findings.map((f) => f.where),
    );
    expect(whole).toEqual(['test-results/edge/stdout.txt:41', 'test-results/edge/stdout.txt:72']);
    expect(windowed).toEqual(limits.map(() => whole));
  });

  test('a file an output folder links to is scanned under the name of the link; a linked folder is not followed (lib/redaction/targets.ts collectFiles; README § Security and limits: the guard "looks in every output folder")', () => {
    const { root, env } = makeRoot();
    const target = write(root, 'elsewhere/notes.txt', lines('x', `password ${PW2}`));
    write(root, 'elsewhere/dir/inner.txt', lines(`password ${PW2}`));
    fs.mkdirSync(path.join(root, 'test-results', 'links'), { recursive: true });
    fs.symlinkSync(target, path.join(root, 'test-results', 'links', 'notes.txt'));
    fs.symlinkSync(path.join(root, 'elsewhere', 'dir'), path.join(root, 'test-results', 'links', 'dir'));
    expect(scanOutputsReport({ root, env }).findings.map((f) => f.where)).toEqual([
      'test-results/links/notes.txt:2',
    ]);
  });
});
