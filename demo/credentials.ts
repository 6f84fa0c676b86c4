import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DEMO_COMPANIES, DEMO_GROUP } from './runs';

/**
 * The demo's credentials registry (docs/contract.md §3 shape): random at each start (node:crypto), written
 * 0600, compared in constant time. Values are never printed, logged or put in a page.
 */

export interface Credentials {
  phone: string;
  password: string;
}
export interface Registry {
  companies: Record<string, Credentials>;
  profileB: Credentials;
}
export type Who = { kind: 'company'; companyId: number } | { kind: 'profileB' };

/** A random mainland mobile number, 1[3-9]\d{9}. */
function randomPhone(): string {
  let digits = `1${crypto.randomInt(3, 10)}`;
  for (let i = 0; i < 9; i++) digits += String(crypto.randomInt(0, 10));
  return digits;
}

function randomPassword(): string {
  return crypto.randomBytes(12).toString('base64url');
}

export function makeRegistry(): Registry {
  const phones = new Set<string>();
  const entry = (): Credentials => {
    let phone = randomPhone();
    while (phones.has(phone)) phone = randomPhone();
    phones.add(phone);
    return { phone, password: randomPassword() };
  };
  return {
    companies: Object.fromEntries(DEMO_COMPANIES.map((id) => [String(id), entry()])),
    profileB: entry(),
  };
}

export function writeRegistry(file: string, registry: Registry): string {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const text = `${JSON.stringify(registry, null, 2)}\n`;
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text, { mode: 0o600 });
  fs.chmodSync(tmp, 0o600);
  fs.renameSync(tmp, file);
  return text;
}

function sameSecret(a: string, b: string): boolean {
  const x = crypto.createHash('sha256').update(a).digest();
  const y = crypto.createHash('sha256').update(b).digest();
  return crypto.timingSafeEqual(x, y);
}

export function whoLogsIn(registry: Registry, phone: string, password: string): Who | undefined {
  let found: Who | undefined;
  // Every entry is compared, so the time taken does not tell which one matched.
  for (const [id, c] of Object.entries(registry.companies)) {
    if (sameSecret(c.phone, phone) && sameSecret(c.password, password))
      found = { kind: 'company', companyId: Number(id) };
  }
  if (sameSecret(registry.profileB.phone, phone) && sameSecret(registry.profileB.password, password))
    found = { kind: 'profileB' };
  return found;
}

/** Contract 3: a company reads only its own data; the Profile B account reads the group's companies. */
export function mayRead(who: Who, companyId: number): boolean {
  return who.kind === 'profileB' ? DEMO_GROUP.companies.includes(companyId) : who.companyId === companyId;
}
