import type { z } from 'zod';

/** The start of the issue a list adds where it stopped validating (./keys.ts `list`). */
export const NOT_VALIDATED = 'not validated from here on';

/** A source (DATA, cal_data_json, an endpoint) whose payload did not validate, with the paths at fault. */
export class SchemaError extends Error {
  constructor(
    readonly source: string,
    readonly issues: string[],
  ) {
    // Where a list stopped being validated (./keys.ts `list`) is said whatever came before it.
    const stop = issues.find((i) => i.includes(`: ${NOT_VALIDATED}`));
    const first = issues.filter((i) => i !== stop).slice(0, 3);
    const shown = stop ? [...first, stop] : first;
    const more = issues.length > shown.length ? `; and ${issues.length - shown.length} more` : '';
    super(`${source} does not match the contract: ${shown.join('; ')}${more}`);
    this.name = 'SchemaError';
  }
}

/** `ROOT.path.to[3].field`: where an issue is, as every schema error names it. */
export function pathText(root: string, path: ReadonlyArray<PropertyKey>): string {
  return path.reduce<string>(
    (acc, key) => (typeof key === 'number' ? `${acc}[${key}]` : `${acc}.${String(key)}`),
    root,
  );
}

/**
 * The issues of a value validated on its own (a list's entry, a platform's block, the product
 * fields), carried into the parse that holds it, under `prefix`: each keeps its message and path.
 */
export function carryIssues(
  ctx: z.RefinementCtx,
  issues: readonly z.core.$ZodIssue[],
  prefix: readonly PropertyKey[] = [],
): void {
  for (const issue of issues)
    ctx.addIssue({ code: 'custom', message: issue.message, path: [...prefix, ...issue.path] });
}

/** Formats zod issues as `ROOT.path.to[3].field: message`, so an error names the offending field. */
export function describeIssues(error: z.ZodError, root: string): string[] {
  return error.issues.map((issue) => `${pathText(root, issue.path)}: ${issue.message}`);
}

/** Parses `value` with `schema` or throws a SchemaError naming the source and the fields. */
export function parseWith<T extends z.ZodType>(
  schema: T,
  value: unknown,
  source: string,
  root: string,
): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw new SchemaError(source, describeIssues(result.error, root));
  return result.data;
}
