import { z } from 'zod';

/**
 * A rate as the contract (section 4.2, section 5) allows it on either side: a number, or a numeric
 * string with an optional trailing `%`. `null`, `""` and `"-"` mean "no value" and become `null`.
 * Anything else is a schema error naming the field, never a silent `NaN`.
 */
export function parseRate(value: unknown): number | null | Error {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number')
    return Number.isFinite(value) ? value : new Error(`not a finite number: ${value}`);
  if (typeof value !== 'string')
    return new Error(`expected a number or a numeric string, got ${typeof value}`);
  const text = value.trim();
  if (text === '' || text === '-') return null;
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)\s*%?$/.test(text)) {
    return new Error(`not a rate: ${JSON.stringify(value.length > 24 ? `${value.slice(0, 24)}…` : value)}`);
  }
  return Number.parseFloat(text);
}

const rateInput = z.union([z.number(), z.string(), z.null()]);

function toRate(value: unknown, ctx: z.RefinementCtx): number | null {
  const parsed = parseRate(value);
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

/** A share-group value (spec 7.3): a count or a percentage, same parsing as a rate. */
export const groupValue = rate;
