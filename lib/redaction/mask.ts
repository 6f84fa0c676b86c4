import fs from 'node:fs';
import path from 'node:path';
import { collectSecrets } from './secrets';
import { redactText } from './url';

/**
 * Masks known secrets in any text before it leaves the suite (README.md § Security and limits):
 * the phones and passwords of the credentials registry (and the demo's), the session cookie values
 * of the invocation's storage states, then every secret-looking URL part (`redactText`). Used for
 * the console (the CI log, which the guard never sees) and for every run's reason, so a platform
 * message or a Playwright error that quotes a phone, a password or a session token is masked at
 * the source. Storage states appear as runs log in: they are read again when their folder changes.
 */
export class SecretMask {
  private values: string[] = [];
  private stamp = '';

  constructor(
    private readonly root: string,
    private readonly options: { env?: NodeJS.ProcessEnv; authDirs?: string[] } = {},
  ) {}

  private refresh(): void {
    const dirs = this.options.authDirs ?? [];
    const stamp = dirs.map((d) => statStamp(d)).join('|');
    if (stamp === this.stamp && this.values.length) return;
    this.stamp = stamp;
    const found = new Set<string>();
    for (const s of collectSecrets(this.root, this.options.env ?? process.env, [])) found.add(s.value);
    for (const dir of dirs) for (const value of cookieValues(dir)) found.add(value);
    // Longest first: a secret that contains another is masked whole.
    this.values = [...found].sort((a, b) => b.length - a.length);
  }

  readonly mask = (text: string): string => {
    this.refresh();
    let out = text;
    for (const value of this.values) {
      for (const form of [value, encodeURIComponent(value)])
        if (form && out.includes(form)) out = out.split(form).join('***');
    }
    return redactText(out);
  };
}

function statStamp(dir: string): string {
  try {
    return String(fs.statSync(dir).mtimeMs);
  } catch {
    return '-';
  }
}

/** Session cookie values of the storage states in `dir` (at least 8 characters). */
function cookieValues(dir: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    try {
      const state = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as {
        cookies?: { value?: unknown }[];
      };
      return (Array.isArray(state.cookies) ? state.cookies : [])
        .map((c) => c.value)
        .filter((v): v is string => typeof v === 'string' && v.length >= 8);
    } catch {
      return [];
    }
  });
}
