import fs from 'node:fs';
import path from 'node:path';
import { loadRegistry, credentialSource, registrySecrets, type CredentialRegistry } from '../run/credentials';
import { escapeHtml } from '../util/escape';
import { MIN_COOKIE_VALUE } from './seen-cookies';

/**
 * The secret values the guard knows: the phones and passwords of the credentials registry (and of
 * the demo platform's registries), the session cookies of the current storage states; each in every
 * encoding an output may hold it (URL, form, JSON, HTML, spaced or dashed phone, base64 at any
 * alignment); and one matcher that finds all of them in one pass over the bytes.
 */

/** Secrets shorter than this are ignored; up to SHORT_SECRET they only match between non-alphanumerics. */
const MIN_SECRET = 4;
export const SHORT_SECRET = 8;

export interface SecretValue {
  value: string;
  /** In words, e.g. "password of company 1001 in the credentials registry". */
  label: string;
  detector: 'registry' | 'auth-cookie';
}

/** A registry field in words: `phone number`, `password`, else the key a malformed entry used. */
function fieldWords(field: string): string {
  return field === 'phone' ? 'phone number' : field === 'password' ? 'password' : `value of "${field}"`;
}

export function collectSecrets(root: string, env: NodeJS.ProcessEnv, warnings: string[]): SecretValue[] {
  const out = new Map<string, SecretValue>();
  const add = (value: string | undefined, label: string, detector: SecretValue['detector']) => {
    if (typeof value !== 'string' || value.length < MIN_SECRET || out.has(value)) return;
    out.set(value, { value, label, detector });
  };
  const fromRegistry = (registry: CredentialRegistry, where: string) => {
    for (const { who, field, value } of registrySecrets(registry))
      add(value, `${fieldWords(field)} of ${who} in ${where}`, 'registry');
    for (const problem of new Set(Object.values(registry.malformed ?? {}))) warnings.push(problem);
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
        if (typeof c.value === 'string' && c.value.length >= MIN_COOKIE_VALUE) {
          add(c.value, `session cookie value (of the storage state .auth/${name})`, 'auth-cookie');
        }
      }
    } catch {
      warnings.push(`.auth/${name}: not a readable storage state, its cookies are not checked`);
    }
  }
  return [...out.values()];
}

export interface SecretForm {
  bytes: Buffer;
  /** e.g. ", URL-encoded"; empty for the raw form. */
  suffix: string;
  base64?: boolean;
}

export interface PreparedSecret extends SecretValue {
  forms: SecretForm[];
  /** Short secrets only match between non-alphanumeric characters. */
  short: boolean;
}

export function prepareSecret(s: SecretValue): PreparedSecret {
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
  texts.push([escapeHtml(v), ', HTML-escaped']);
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
export class SecretSearch {
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
