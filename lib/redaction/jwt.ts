/**
 * JSON web tokens by their shape, for the redaction guard (./detectors) and the masker (./url),
 * which masks one wherever it stands in a URL or a text, whatever its parameter is called (`jwt=`
 * was not a secret-looking name: a run URL carrying one reached a verdict file, and the guard then
 * failed the night on the suite's own output; hostile-platform audit of 2026-11-27).
 */

/**
 * What a JSON web token looks like: three base64url parts, the first two JSON (`eyJ` is `{"`).
 * Found by `jwtMatches`, which gives the same matches in linear time: V8 runs this regex in time
 * proportional to the length of a run of base64url characters for every `eyJ` inside it, and an
 * Allure report's embedded data is base64 in which `eyJ` starts every JSON file (80 % of the
 * guard's time over 300 runs' outputs, 44 of 56 CPU s).
 */
export const JWT = /eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g;

/**
 * A lookup table of the latin1 codes whose characters `chars` (a regular expression's class) matches:
 * one read per character where the scans below called a chain of comparisons. The texts scanned
 * are buffers read as latin1; a code above 255 reads `undefined`, which is no match.
 */
export function charTable(chars: RegExp): Uint8Array {
  const table = new Uint8Array(256);
  for (let c = 0; c < 256; c++) if (chars.test(String.fromCharCode(c))) table[c] = 1;
  return table;
}

/** `[A-Za-z0-9_-]`. */
const BASE64URL = charTable(/[A-Za-z0-9_-]/);

/** The end of the run of `[A-Za-z0-9_-]` that starts at `from`. */
function base64UrlRunEnd(text: string, from: number): number {
  let i = from;
  while (i < text.length && BASE64URL[text.charCodeAt(i)]) i++;
  return i;
}

/**
 * Every match of `JWT` (leftmost, not overlapping, as `text.matchAll(JWT)`), each character looked
 * at a bounded number of times. Each `[A-Za-z0-9_-]{8,}` takes its whole run (the class holds no
 * ".", so the regex can never match by giving characters back), so a candidate fails or matches
 * by what follows the end of its run; a later `eyJ` in the same run ends there too, with a shorter
 * part, and fails as well: the search goes on after the run.
 */
export function jwtMatches(text: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  const part = (from: number) => {
    const end = base64UrlRunEnd(text, from);
    return { end, long: end - from >= 8 };
  };
  let from = 0;
  for (let p = text.indexOf('eyJ', from); p !== -1; p = text.indexOf('eyJ', from)) {
    const one = part(p + 3);
    from = one.end; // past this `eyJ`: the run ends at or after p + 3
    if (!one.long || text.charCodeAt(one.end) !== 0x2e || !text.startsWith('eyJ', one.end + 1)) continue;
    const two = part(one.end + 4);
    if (!two.long || text.charCodeAt(two.end) !== 0x2e) continue;
    const three = part(two.end + 1);
    if (!three.long) continue;
    out.push({ start: p, end: three.end });
    from = three.end;
  }
  return out;
}

/** `text` with every JSON web token (`jwtMatches`) replaced by `***`. */
export function maskJwts(text: string): string {
  const found = jwtMatches(text);
  if (found.length === 0) return text;
  let out = '';
  let at = 0;
  for (const { start, end } of found) {
    out += `${text.slice(at, start)}***`;
    at = end;
  }
  return out + text.slice(at);
}
