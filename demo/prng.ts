/**
 * A small seeded PRNG (mulberry32) so every dataset is the same at every start: the demo's numbers
 * are reproducible, only its credentials are random (node:crypto, see server.ts).
 */
export type Rng = () => number;

/** FNV-1a, 32 bits: turns a seed string into mulberry32's state. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function mulberry32(seed: string): Rng {
  let a = hash32(seed);
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function between(rng: Rng, min: number, max: number): number {
  return min + (max - min) * rng();
}

export function intBetween(rng: Rng, min: number, max: number): number {
  return Math.floor(between(rng, min, max + 1));
}

export function pick<T>(rng: Rng, items: readonly T[]): T {
  const item = items[Math.floor(rng() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

export function shuffle<T>(rng: Rng, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/**
 * Shuffles items but keeps the relative order of items with an equal key: what an API may do to
 * rows (any order), while equal counts / rates still keep their printed order (spec 7.6, 7.8.4).
 * The demo's platform view and the generated cases (demo/model/encode.ts) both use it.
 */
export function shuffleKeepingTies<T>(rng: Rng, items: readonly T[], key: (item: T) => unknown): T[] {
  const groups = new Map<unknown, T[]>();
  for (const item of items) {
    const k = key(item);
    groups.set(k, [...(groups.get(k) ?? []), item]);
  }
  const slots = shuffle(
    rng,
    items.map((item) => key(item)),
  );
  return slots.map((k) => (groups.get(k) as T[]).shift() as T);
}

/** Two decimals, as the HTML formatter prints (spec 7.1.1). */
export function round2(x: number): number {
  return Math.round((x + 1e-9) * 100) / 100;
}

/** One decimal, as the platform prints (spec 7.1.1; the same rounding as spec 9.3.1). */
export function round1(x: number): number {
  return Math.round((x + 1e-9) * 10) / 10;
}
