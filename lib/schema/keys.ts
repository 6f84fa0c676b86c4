import { z } from 'zod';
import { carryIssues, NOT_VALIDATED } from './issues';

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

/** A repeated key of a keyed list: where it is, under which field, and the message naming it. */
export interface DuplicateKey {
  path: (string | number)[];
  message: string;
}

/**
 * The repeated keys of a keyed list (`keyOf` gives undefined for an item no check reads), each with
 * the position of its first occurrence: `noDuplicates` for a schema, and the collection for the
 * rows whose keys a run reads only once it knows its report (lib/platform/collect.ts).
 */
export function duplicateKeys<T>(
  items: readonly T[],
  keyOf: (item: T) => string | undefined,
  what: string,
  field: string,
): DuplicateKey[] {
  const first = new Map<string, number>();
  const found: DuplicateKey[] = [];
  items.forEach((item, index) => {
    const key = keyOf(item);
    if (key === undefined) return;
    const seen = first.get(key);
    if (seen === undefined) first.set(key, index);
    else
      found.push({
        path: [index, field],
        message: `duplicate ${what} ${key} (also at [${seen}]): one would silently win over the other`,
      });
  });
  return found;
}

/**
 * Duplicate keys in a keyed list are an error naming the key and both positions (README.md § Security and limits):
 * one value would otherwise silently win over the other.
 */
export function noDuplicates<T>(keyOf: (item: T) => string | undefined, what: string, field: string) {
  return (items: readonly T[], ctx: z.RefinementCtx) => {
    for (const { path, message } of duplicateKeys(items, keyOf, what, field))
      ctx.addIssue({ code: 'custom', path, message });
  };
}

/** How many invalid entries of one list are described before the list stops being validated. */
export const LIST_ISSUES = 3;

/**
 * A list whose entries are validated one at a time, up to the `LIST_ISSUES`th that does not
 * validate; the rest are not looked at. zod's own array validates every entry and keeps an
 * issue for each: a platform answer of 40 MB of `{}` rows (under L1_MAX_ANSWER_MB) made millions of
 * issues, and the worker ran out of memory before any budget could stop it, once for every test
 * of the run (hostile audit of 2026-11-26). A list that validates gives what `z.array(entry)` gives.
 */
export function list<T extends z.ZodType>(entry: T): z.ZodType<z.output<T>[], z.input<T>[]> {
  return z.array(z.unknown()).transform((values, ctx) => {
    const out: z.output<T>[] = [];
    let invalid = 0;
    for (let i = 0; i < values.length; i++) {
      if (invalid >= LIST_ISSUES) {
        ctx.addIssue({
          code: 'custom',
          message: `${NOT_VALIDATED} (${values.length} entries in all): ${LIST_ISSUES} before it do not validate`,
          path: [i],
        });
        break;
      }
      const parsed = entry.safeParse(values[i]);
      if (parsed.success) out.push(parsed.data as z.output<T>);
      else {
        invalid++;
        carryIssues(ctx, parsed.error.issues.slice(0, LIST_ISSUES), [i]);
      }
    }
    return out;
  }) as unknown as z.ZodType<z.output<T>[], z.input<T>[]>;
}
