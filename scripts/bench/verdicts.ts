import fs from 'node:fs';
import path from 'node:path';
import type { ScenarioExpectation } from '../../demo/scenario-kit';
import { verdictFileNames } from '../../lib/report/verdict-folder';
import { verdictFileSchema, type VerdictFile } from '../../lib/schema/verdict';

export interface VerdictCheck {
  verdicts: VerdictFile[];
  /** One line per run whose verdict is not the generated expectation (or is missing, or invalid). */
  problems: string[];
  /** Sum over runs of collection + item test time, and of item test time (verdict durations). */
  runMs: number;
  itemMs: number;
}

/** Reads a verdict folder and compares each run's status and failing items with `expected`. */
export function checkVerdicts(dir: string, expected: Map<string, ScenarioExpectation>): VerdictCheck {
  const problems: string[] = [];
  const byLabel = new Map<string, VerdictFile>();
  for (const file of fs.existsSync(dir) ? verdictFileNames(dir) : []) {
    const parsed = verdictFileSchema.safeParse(JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')));
    if (parsed.success) byLabel.set(parsed.data.run.label, parsed.data);
    else problems.push(`${file}: not a valid verdict file`);
  }
  for (const [label, want] of expected) {
    const got = byLabel.get(label);
    if (!got) {
      problems.push(`${label}: no verdict file`);
      continue;
    }
    if (got.status !== want.status) {
      problems.push(`${label}: status ${got.status}, expected ${want.status} (${got.reason ?? ''})`);
      continue;
    }
    if (want.status === 'checked') {
      const failing = got.items.filter((i) => i.verdict === 'fail').map((i) => i.item);
      const wanted = [...(want.failingItems ?? [])].sort((a, b) => a - b);
      if (got.items.length !== 10 || failing.join(',') !== wanted.join(','))
        problems.push(
          `${label}: ${got.items.length} items, failing [${failing.join(',')}], expected 10 items, failing [${wanted.join(',')}]`,
        );
    }
  }
  for (const label of byLabel.keys())
    if (!expected.has(label)) problems.push(`${label}: not a generated run`);
  const verdicts = [...byLabel.values()];
  return {
    verdicts,
    problems,
    runMs: verdicts.reduce((s, v) => s + v.durationMs, 0),
    itemMs: verdicts.reduce((s, v) => s + v.items.reduce((t, i) => t + (i.durationMs ?? 0), 0), 0),
  };
}
