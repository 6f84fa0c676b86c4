import path from 'node:path';
import { chromium } from '@playwright/test';
import { Collector } from '../../../fixtures/collector';
import { chromiumLaunchOptions } from '../../../lib/run/browser';
import type { Invocation } from '../../../lib/run/invocation';
import { readSettings, ROOT, type Settings } from '../../../lib/run/settings';
import type { RunInput } from '../../../lib/run/types';
import { startDemo, type DemoServer } from '../../../demo/server';

/**
 * The demo platform on free ports with light report pages (DATA only, no chart scripts: the demo
 * reads L1_DEMO_CHARTS on each request, demo/handlers-pages.ts), its credentials file in `dir`.
 * What a unit test over it measures or counts is then the suite's work, not the charts'. `env`: more
 * of the demo's variables it reads on each request (L1_DEMO_SLOW_MS). `close` stops the demo and
 * gives each variable back its value.
 */
export async function lightDemo(dir: string, env: Record<string, string> = {}): Promise<DemoServer> {
  const set = { ...env, L1_DEMO_CHARTS: '0' };
  const before = Object.fromEntries(Object.keys(set).map((k) => [k, process.env[k]]));
  const restore = () => {
    for (const [k, v] of Object.entries(before))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  };
  Object.assign(process.env, set);
  try {
    const demo = await startDemo({
      port: 0,
      quiet: true,
      credentialsFile: path.join(dir, 'credentials.json'),
    });
    return { ...demo, close: () => demo.close().finally(restore) };
  } catch (e) {
    restore();
    throw e;
  }
}

/**
 * The suite's settings over `demo` (its runs, or `runs`), with `env` beside its credentials file,
 * and a collector as one worker of the checks has (fixtures/collector.ts) over an invocation
 * folder in `dir`; `collector()` again is the worker Playwright starts after a failed test (a new
 * Collector over the same folder).
 */
export function demoCollector(
  demo: DemoServer,
  dir: string,
  { env = {}, runs }: { env?: Record<string, string>; runs?: RunInput[] } = {},
): { settings: Settings; collector: () => Collector } {
  const settings = readSettings({
    root: ROOT,
    env: { ...env, L1_CREDENTIALS_FILE: demo.credentialsFile },
    dotenv: {},
    now: new Date(),
    demo: () => ({
      runs: runs ?? demo.runs,
      profileB: demo.profileB,
      credentialsFile: demo.credentialsFile,
    }),
  });
  const invocation = { auth: path.join(dir, 'auth'), runs: path.join(dir, 'runs') } as Invocation;
  return {
    settings,
    collector: () => new Collector(chromium, chromiumLaunchOptions(), settings, invocation),
  };
}
