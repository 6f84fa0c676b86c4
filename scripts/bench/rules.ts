import fs from 'node:fs';
import path from 'node:path';
import { ITEM_RULES } from '../../lib/rules';
import type { RuleContext } from '../../lib/rules/types';
import type { Evidence } from '../../lib/platform/evidence';

/**
 * Times the rule registry (items 3-12) over the parsed inputs kept in an invocation's run folders
 * (`<state>/invocations/<id>/runs/<slug>/inputs.json`, with L1_KEEP_STATE=1).
 */
export function benchRules(runsDir: string, rounds: number): string {
  const contexts: RuleContext[] = [];
  for (const slug of fs.existsSync(runsDir) ? fs.readdirSync(runsDir) : []) {
    const judged = path.join(runsDir, slug, 'judged.json');
    const inputs = path.join(runsDir, slug, 'inputs.json');
    if (!fs.existsSync(inputs) || !fs.existsSync(judged)) continue;
    const run = (JSON.parse(fs.readFileSync(judged, 'utf8')) as { run: Evidence['run'] }).run;
    const parsed = JSON.parse(fs.readFileSync(inputs, 'utf8')) as NonNullable<Evidence['parsed']>;
    if (!run.reportType) continue;
    contexts.push({
      profile: run.profile,
      level: run.level,
      reportType: run.reportType,
      data: parsed.data,
      platform: parsed.platform,
    });
  }
  if (contexts.length === 0) return `rules: no checked run in ${runsDir}; skipped`;
  const rules = Object.values(ITEM_RULES);
  for (const context of contexts) for (const rule of rules) rule(context); // warm-up
  const started = process.hrtime.bigint();
  for (let i = 0; i < rounds; i++) for (const context of contexts) for (const rule of rules) rule(context);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const perRun = ms / (rounds * contexts.length);
  return `rules: ${rounds} rounds × ${contexts.length} checked runs × ${rules.length} items in ${ms.toFixed(0)} ms → ${perRun.toFixed(3)} ms per run (all ten items)`;
}
