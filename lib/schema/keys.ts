import { z } from 'zod';

/**
 * Keyed records and keyed lists (README.md § Security and limits and 11).
 *
 * Decision: `__proto__`, `constructor` and `prototype` are REJECTED as platform keys, with an error
 * naming the source (the caller's parseWith) and the key. No real AI platform is called that, and a
 * record keyed by them can be read wrongly by any plain-object lookup down the line (zod itself drops
 * a `__proto__` key silently), so refusing them at the border is the one safe answer. The rules still
 * read keyed records by own property only (lib/rules/keyed.ts), so a hand-built context cannot crash.
 */
export const RESERVED_KEYS: readonly string[] = ['__proto__', 'constructor', 'prototype'];

export function reservedKeyMessage(key: string): string {
  return `platform key ${JSON.stringify(key)} is not allowed (it names an Object property, not a platform)`;
}

/** A platform key: a non-empty string that is not an Object property name. */
export const platformKey = z
  .string()
  .min(1)
  .refine((key) => !RESERVED_KEYS.includes(key), {
    error: (issue) => reservedKeyMessage(String(issue.input)),
  });

/**
 * A record keyed by platform. Reserved keys are reported on the raw input (zod would drop `__proto__`
 * before any later check could see it); the output is a plain object holding only ordinary keys.
 */
export function platformRecord<V extends z.ZodType>(value: V) {
  return z.preprocess(
    (raw: Record<string, z.input<V>>, ctx) => {
      if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
        for (const key of Object.keys(raw)) {
          if (RESERVED_KEYS.includes(key)) {
            ctx.addIssue({ code: 'custom', message: reservedKeyMessage(key), path: [key], input: raw });
          }
        }
      }
      return raw;
    },
    z.record(z.string(), value),
  );
}

/**
 * Duplicate keys in a keyed list are an error naming the key and both positions (README.md § Security and limits):
 * one value would otherwise silently win over the other.
 */
export function noDuplicates<T>(keyOf: (item: T) => string | undefined, what: string, field: string) {
  return (items: readonly T[], ctx: z.RefinementCtx) => {
    const first = new Map<string, number>();
    items.forEach((item, index) => {
      const key = keyOf(item);
      if (key === undefined) return;
      const seen = first.get(key);
      if (seen === undefined) first.set(key, index);
      else
        ctx.addIssue({
          code: 'custom',
          path: [index, field],
          message: `duplicate ${what} ${key} (also at [${seen}]): one would silently win over the other`,
        });
    });
  };
}
