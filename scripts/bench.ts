/**
 * Benchmark (`npm run bench`): speed is measured here, never in a timed test.
 * 1. Rules: evaluates items 3-12 over the evidence of the last invocation, many times.
 * 2. End to end: `npx playwright test` over the configured runs (the demo by default), per worker count.
 * Options: --rounds N (rules, default 200), --e2e-workers 1,2 (default), --no-e2e.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { readEvidence, ruleContext } from '../lib/platform/evidence';
import { ROOT } from '../lib/run/config';
import { stateRoot } from '../lib/run/state';
import { ITEM_RULES } from '../lib/rules';

const root = path.resolve(__dirname, '..');
const args = process.argv.slice(2);
const opt = (name: string, fallback: string) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? args[i + 1]! : fallback;
};

function benchRules(rounds: number): void {
  // The evidence of the last invocation run with L1_KEEP_STATE=1 and L1_INVOCATION_ID=bench.
  const dir = path.join(stateRoot(ROOT), 'invocations', 'bench', 'evidence');
  const slugs = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.json')) : [];
  const contexts = slugs.flatMap((f) => {
    const evidence = readEvidence(dir, f.slice(0, -'.json'.length));
    const context = evidence && ruleContext(evidence);
    return context ? [context] : [];
  });
  if (contexts.length === 0) {
    console.log('rules: no checked evidence in .l1/evidence (run `npx playwright test` first); skipped');
    return;
  }
  const started = process.hrtime.bigint();
  for (let i = 0; i < rounds; i++) {
    for (const context of contexts) {
      for (const rule of Object.values(ITEM_RULES)) rule(context);
    }
  }
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const perRun = ms / (rounds * contexts.length);
  console.log(
    `rules: ${rounds} rounds × ${contexts.length} runs × 10 items in ${ms.toFixed(0)} ms → ${perRun.toFixed(3)} ms per run (all ten items)`,
  );
}

function benchEndToEnd(workers: string[]): void {
  for (const w of workers) {
    const started = Date.now();
    const r = spawnSync('npx', ['playwright', 'test', '--reporter=dot'], {
      cwd: root,
      env: {
        ...process.env,
        L1_WORKERS: w,
        L1_VERDICTS_DIR: path.join('test-results', 'bench', 'verdicts'),
        L1_ALLURE_RESULTS_DIR: path.join('test-results', 'bench', 'allure-results'),
      },
      encoding: 'utf8',
    });
    const s = (Date.now() - started) / 1000;
    const summary = (r.stdout.match(/\d+ passed[^\n]*/) ?? ['?'])[0];
    console.log(`end to end: workers=${w} → ${s.toFixed(1)} s wall (exit ${r.status}; ${summary})`);
  }
}

benchRules(Number(opt('--rounds', '200')));
if (!args.includes('--no-e2e')) benchEndToEnd(opt('--e2e-workers', '1,2').split(','));
