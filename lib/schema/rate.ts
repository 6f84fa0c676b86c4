import { z } from 'zod';

/**
 * The largest magnitude a rate or share value may have: the rules compare values as whole numbers
 * of 1e-9 points (lib/rules/decimal.ts `SCALE`, docs/rules.md §D6), which needs a value's binary
 * form within half a nano-point of its decimal one: true below 2^22 (4,194,304) points, not at
 * 9,000,000 (where 8999999.95 − 8999999.90 scaled to 0.050000001). Beyond it a comparison is not
 * exact, and past 1.8e299 it gave "HTML Infinity · platform Infinity · gap NaN" (`"1e400"` parsed
 * as Infinity, `"1e300"` scaled to it; hostile-platform audit of 2026-11-27): refused with its
 * value instead. Four million is far above any rate (0–100) or count of a report's groups.
 */
export const RATE_MAX = 4_000_000;

/** What a value read as a rate is called in its error: a rate, or a share group's count or share. */
type Reading = 'rate' | 'count or share';

function bounded(n: number, shown: string, what: Reading): number | Error {
  if (!Number.isFinite(n)) return new Error(`not a ${what}: ${shown} is not a finite number`);
  if (Math.abs(n) > RATE_MAX)
    return new Error(
      `not a ${what}: ${shown} is beyond ±${RATE_MAX.toLocaleString('en-US')}, what the checks compare exactly`,
    );
  return n;
}

/**
 * A rate as the contract (section 4.2, section 5) allows it on either side: a number, or a numeric
 * string with an optional trailing `%`. `null`, `""` and `"-"` mean "no value" and become `null`.
 * Anything else is a schema error naming the field, never a silent `NaN`: `NaN` and `Infinity` (read
 * from the page as real numbers, README.md § Security and limits) are "not a rate".
 */
export function parseRate(value: unknown, what: Reading = 'rate'): number | null | Error {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return bounded(value, String(value), what);
  if (typeof value !== 'string')
    return new Error(`not a ${what}: expected a number or a numeric string, got ${typeof value}`);
  const text = value.trim();
  if (text === '' || text === '-') return null;
  // A decimal, in exponent form too ("5.0E-4": how Java's Double.toString prints any rate below
  // 0.001), with an optional trailing %. An exponent of up to three digits, as every double is
  // printed (e-324 to e308): "1e-999" reads as 0 and "1e999" is refused below as not finite; a
  // fourth digit ("1e-1000") is no number any platform prints, refused as not a rate.
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d{1,3})?\s*%?$/.test(text)) {
    return new Error(
      `not a ${what}: ${JSON.stringify(value.length > 24 ? `${value.slice(0, 24)}…` : value)}`,
    );
  }
  return bounded(Number.parseFloat(text), JSON.stringify(text), what);
}

/**
 * The printed form of a rate (spec 9.3.4 "when the platform prints an integer"): the string as it came
 * (trimmed), or the number as JavaScript prints it; `undefined` for no value.
 */
export function printedForm(value: unknown): string | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  return text === '' || text === '-' ? undefined : text;
}

/**
 * Any value reaches the rate parser, so a wrong one gets its message ("not a rate: NaN") rather than
 * zod's generic "Invalid input" (z.number() itself refuses NaN and Infinity without saying why). The
 * declared input type stays what the contract allows.
 */
const rateInput = z.custom<number | string | null>((value) => value !== undefined, {
  error: 'expected a rate (a number or a numeric string), got nothing',
});

function toRate(value: unknown, ctx: z.RefinementCtx, what: Reading = 'rate'): number | null {
  const parsed = parseRate(value, what);
  if (parsed instanceof Error) {
    ctx.addIssue({ code: 'custom', message: parsed.message });
    return z.NEVER;
  }
  return parsed;
}

/** A rate whose key must be present; its value may still be "no value" (`null`). */
export const rate = rateInput.transform(toRate);

/** A rate whose key may be absent; absent and "no value" both become `null`. */
export const optionalRate = rateInput.optional().transform(toRate);

/** A rate with its printed form kept beside the number (spec 9.3.4). */
export const printedRate = rateInput
  .optional()
  .transform((value, ctx) => ({ value: toRate(value, ctx), printed: printedForm(value) }));

/**
 * A rate field that no check reads (e.g. the snapshot's position_rate, spec 9.2.2): docs/contract.md §4.2
 * accepts it in any shape; a readable rate is kept, anything else becomes "no value".
 */
export const unusedRate = z
  .unknown()
  .optional()
  .transform((value) => {
    const parsed = parseRate(value);
    return parsed instanceof Error ? null : parsed;
  });

/**
 * A share-group value (spec 7.3): a count or a percentage, parsed as a rate (the same forms and
 * bound, RATE_MAX), and said as what it is when it is none ("not a count or share").
 */
export const groupValue = rateInput.transform((value, ctx) => toRate(value, ctx, 'count or share'));
