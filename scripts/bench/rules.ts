import fs from 'node:fs';
import { readEvidence } from '../../lib/platform/evidence';
import { ruleContext } from '../../lib/rules/context';
import { ITEM_RULES } from '../../lib/rules';
import type { RuleContext } from '../../lib/rules/types';

/** Times the rule registry (items 3-12) over the checked evidence found in `dir`. */
export function benchRules(dir: string, rounds: number): string {
  const slugs = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.json')) : [];
  const contexts: RuleContext[] = [];
  for (const f of slugs) {
    const evidence = readEvidence(dir, f.slice(0, -'.json'.length));
    const context = evidence && ruleContext(evidence);
    if (context) contexts.push(context);
  }
  if (contexts.length === 0) return `rules: no checked evidence in ${dir}; skipped`;
  const rules = Object.values(ITEM_RULES);
  for (const context of contexts) for (const rule of rules) rule(context); // warm-up
  const started = process.hrtime.bigint();
  for (let i = 0; i < rounds; i++) for (const context of contexts) for (const rule of rules) rule(context);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const perRun = ms / (rounds * contexts.length);
  return `rules: ${rounds} rounds × ${contexts.length} checked runs × ${rules.length} items in ${ms.toFixed(0)} ms → ${perRun.toFixed(3)} ms per run (all ten items)`;
}
