import fs from 'node:fs';
import path from 'node:path';
import { redactUrl } from '../../redaction/url';
import { notCheckedFailing, type NightSummary } from '../night';
import { writeAllureEnvironment } from './environment';
import { batchDateEntries, writeAllureSummary } from './summary';

/**
 * What one invocation knew about itself, left in its Allure results (`l1-invocation-<id>.json`) so
 * that the report of a night merged from n shards has one environment block for the whole night
 * (all shards' base URLs, the date, "3 shards"), not the last shard's.
 */
export interface InvocationFacts {
  id: string;
  suite: string;
  runsFrom: string;
  profileB: string;
  baseUrls: string[];
  night?: string;
  shard: string | null;
  selection: string;
  workers: number;
  playwright: string;
  browser: string;
  partial: boolean;
}

const FACTS = /^l1-invocation-[\w.-]+\.json$/;

export function writeInvocationFacts(resultsDir: string, facts: InvocationFacts): string {
  fs.mkdirSync(resultsDir, { recursive: true });
  // The shard in the name too: shards given one invocation id (L1_INVOCATION_ID) keep their own facts.
  const shard = facts.shard ? `-shard-${facts.shard.replace('/', '-of-')}` : '';
  const file = path.join(resultsDir, `l1-invocation-${facts.id}${shard}.json`);
  fs.writeFileSync(file, `${JSON.stringify(facts, null, 2)}\n`);
  return file;
}

export function readInvocationFacts(resultsDir: string): InvocationFacts[] {
  let names: string[];
  try {
    names = fs.readdirSync(resultsDir).filter((n) => FACTS.test(n));
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    try {
      return [JSON.parse(fs.readFileSync(path.join(resultsDir, name), 'utf8')) as InvocationFacts];
    } catch {
      return [];
    }
  });
}

const union = (values: string[]) => [...new Set(values.filter(Boolean))].sort();

/**
 * The environment block of one night: the facts of every invocation (shard) that wrote to the
 * results folder, joined; the counts and dates from the night summary.
 */
export function nightEnvironment(facts: InvocationFacts[], summary: NightSummary): Record<string, string> {
  const shards = facts.filter((f) => f.shard);
  const total = shards[0]?.shard?.split('/')[1];
  return {
    suite: union(facts.map((f) => f.suite)).join(', ') || '-',
    ...batchDateEntries(summary),
    runs: union(facts.map((f) => f.runsFrom)).join(' | ') || '-',
    result:
      `${summary.counts.checked} of ${summary.counts.runs} run(s) checked, ${summary.counts.failing} with failing items, ${summary.counts.notChecked} not checked` +
      (summary.counts.failingItemsNotChecked
        ? ` (${notCheckedFailing(summary.counts.failingItemsNotChecked)})`
        : ''),
    shards: shards.length
      ? `${total ?? shards.length} shards (${union(shards.map((f) => f.shard!)).join(', ')})`
      : 'not sharded',
    'base URLs': union(facts.flatMap((f) => f.baseUrls.map((u) => redactUrl(u)))).join(' ') || '-',
    'Profile B': union(facts.map((f) => f.profileB)).join(' | ') || '-',
    selection: union(facts.map((f) => f.selection)).join(' | ') || '-',
    workers: union(facts.map((f) => String(f.workers))).join(', ') || '-',
    Playwright: union(facts.map((f) => f.playwright)).join(', ') || '-',
    browser: union(facts.map((f) => f.browser)).join(' | ') || '-',
  };
}

/** The environment block and the grid of the night into the results folder (replacing earlier ones). */
export function writeNightExtras(resultsDir: string, summary: NightSummary): void {
  writeAllureEnvironment(resultsDir, nightEnvironment(readInvocationFacts(resultsDir), summary));
  writeAllureSummary(resultsDir, summary);
}
