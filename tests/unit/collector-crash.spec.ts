import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { chromium, expect, test } from '@playwright/test';
import { Collector } from '../../fixtures/collector';
import { A_MONITOR } from '../../demo/runs';
import { chromiumLaunchOptions } from '../../lib/run/browser';
import type { Invocation } from '../../lib/run/invocation';
import { ROOT, type Settings } from '../../lib/run/settings';
import { configuredRun } from './fakes/platform';
import { tempDir } from './fakes/temp';

/**
 * A collection that ends its worker (out of memory, a crash) is not started again by each of the
 * run's tests (hostile audit of 2026-11-26: a 40 MB answer took eleven workers out of memory in
 * turn, 2.5 minutes each). The collection leaves a mark while it runs (fixtures/collector.ts
 * `endedCollection`); a mark whose process is gone is a collection that ended its worker.
 */
function collector(dir = tempDir('collector-crash')): { collector: Collector; dir: string } {
  const settings = {
    root: ROOT,
    env: {},
    screenshots: 'none',
    runs: [],
    pageOrigins: [],
    loginOrigins: [],
    profileB: {},
    limits: {
      requestTimeoutMs: 2_000,
      retryBackoffMs: 10,
      runTimeoutMs: 10_000,
      maxAnswerBytes: 1 << 20,
      pageMaxBytes: 400 << 20,
    },
  } as unknown as Settings;
  const runs = path.join(dir, 'runs');
  const invocation = { auth: path.join(dir, 'auth'), runs } as Invocation;
  return { collector: new Collector(chromium, chromiumLaunchOptions(), settings, invocation), dir };
}

/** A run whose platform nothing answers: collected, it ends at once with its own reason. */
const run = configuredRun(A_MONITOR, {
  htmlUrl: 'http://127.0.0.1:9/reports/101101/monitor/2025-11-17?companyId=1001&topic=T',
  platformUrl: 'http://127.0.0.1:9/platform/overview?projectId=101101',
});

/** A mark as a collection leaves it, of a process that has ended. */
function markOfEndedWorker(folder: string, attempt: number): number {
  const gone = spawnSync(process.execPath, ['-e', '0']).pid;
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(
    path.join(folder, 'collecting.json'),
    JSON.stringify({ pid: gone, startedAt: new Date(Date.now() - 1000).toISOString(), attempt }),
  );
  return gone;
}

test('a collection whose worker ended is not started again: the run is an error naming it, once, for every test', async () => {
  const { collector: c, dir } = collector();
  const pid = markOfEndedWorker(c.folder(run), 0);
  try {
    const judged = await c.judgedFor(run);
    expect(judged.status).toBe('error');
    expect(judged.failureKind).toBe('platform');
    expect(judged.reason).toContain(`ended the worker process that ran it (pid ${pid}) before it finished`);
    // Stored: the run's other tests, in another worker, read it and never collect.
    expect(collector(dir).collector.known(run)?.reason).toBe(judged.reason);
  } finally {
    await c.close();
  }
});

test('near miss: a retry collects again, and a collection that ends removes its mark', async () => {
  const { collector: c } = collector();
  markOfEndedWorker(c.folder(run), 0);
  try {
    expect((await c.judgedFor(run)).reason).toContain('ended the worker process');
    // Playwright's retry #1: another attempt, so it collects (nothing answers on port 9).
    const again = await c.judgedFor(run, 1);
    expect(again.status).toBe('error');
    expect(again.reason).not.toContain('ended the worker process');
    expect(fs.existsSync(path.join(c.folder(run), 'collecting.json'))).toBe(false);
  } finally {
    await c.close();
  }
});
