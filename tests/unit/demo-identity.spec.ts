import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { expect, test } from './test-type';
import { CHECKOUT_ID, demoCredentialsFile } from '../../demo/runs';
import { startDemo } from '../../demo/server';
import { ROOT, tsScript } from '../../lib/run/settings';
import { freeTriple } from '../../scripts/bench/demo-server';
import { demoProblem } from '../setup/cli';

/**
 * README.md § Failure modes, "another process on the demo port": with no configuration the checks
 * use this checkout's demo, started by Playwright's webServer (playwright.config.ts). Global setup
 * refuses a demo that is not this checkout's, and one that another live invocation started: that
 * one stops it, and removes its credentials, when it ends (an audit saw every run of the second
 * invocation end in error, naming the credentials file).
 */

const URL_ = 'http://127.0.0.1:4173/healthz';
/** The pid of a process that has ended. */
const gone = () => spawnSync(process.execPath, ['-e', '0']).pid!;

test('this checkout demo: started on its own, by this runner, or by a runner that has ended, it is used', () => {
  expect(demoProblem(4173, URL_, CHECKOUT_ID, null)).toBeUndefined();
  expect(demoProblem(4173, URL_, CHECKOUT_ID, process.pid)).toBeUndefined();
  expect(demoProblem(4173, URL_, CHECKOUT_ID, gone())).toBeUndefined();
});

test("a demo whose runner's pid another process took after the demo began is not that runner's: used", () => {
  // The parent process started before now, so long after a demo begun in 2020.
  expect(demoProblem(4173, URL_, CHECKOUT_ID, process.ppid, '2020-01-01T00:00:00.000Z')).toBeUndefined();
  expect(demoProblem(4173, URL_, CHECKOUT_ID, process.ppid, new Date().toISOString())).toContain(
    'started by another invocation',
  );
});

test("this checkout's demo started by another live invocation is refused, naming its process and L1_DEMO_PORT", () => {
  expect(demoProblem(4173, URL_, CHECKOUT_ID, process.ppid)).toBe(
    `demo platform: port 4173 is this checkout's demo, started by another invocation (process ${process.ppid}), which stops it when it ends: run one at a time, or give this one its own L1_DEMO_PORT`,
  );
});

test("another checkout's demo, or a process that does not say, is refused whoever started it", () => {
  expect(demoProblem(4173, URL_, 'another-checkout', null)).toContain('names another checkout');
  expect(demoProblem(4173, URL_, undefined, process.pid)).toContain('does not say which checkout it is');
});

/** What a demo started with L1_DEMO_STARTED_BY set to `value` (unset: undefined) says of itself. */
async function healthWith(value: string | undefined): Promise<unknown[]> {
  const before = process.env.L1_DEMO_STARTED_BY;
  const set = (v: string | undefined) => {
    if (v === undefined) delete process.env.L1_DEMO_STARTED_BY;
    else process.env.L1_DEMO_STARTED_BY = v;
  };
  set(value);
  const demo = await startDemo({ port: 0, quiet: true });
  try {
    const answer = (await (await fetch(`${demo.origin}/healthz`)).json()) as Record<string, unknown>;
    return [answer.checkout, answer.startedBy, answer.startedAt];
  } finally {
    await demo.close();
    set(before);
  }
}

test('the demo says which runner started it (L1_DEMO_STARTED_BY, set by the webServer), or null when started on its own', async () => {
  expect(await healthWith('4242')).toEqual([CHECKOUT_ID, 4242, expect.stringMatching(/^\d{4}-\d\d-\d\dT/)]);
  expect(await healthWith(undefined)).toEqual([CHECKOUT_ID, null, expect.any(String)]);
  expect(await healthWith('not a pid')).toEqual([CHECKOUT_ID, null, expect.any(String)]);
});

test('a demo started by a runner ends when that runner is gone (killed with SIGKILL, it could not stop it), and takes its credentials file with it', async () => {
  test.setTimeout(30_000);
  const runner = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
  const port = await freeTriple(5560);
  const demo = spawn(...tsScript('demo/server.ts'), {
    cwd: ROOT,
    env: { ...process.env, L1_DEMO_PORT: String(port), L1_DEMO_STARTED_BY: String(runner.pid) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  demo.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => demo.on('exit', resolve));
  try {
    await expect.poll(() => out, { timeout: 15_000 }).toContain('main origin');
    expect(fs.existsSync(demoCredentialsFile(port))).toBe(true);
    // The banner's command for generated runs is one that runs: runs-file.ts refuses --model
    // without --origin and --out ("--out FILE is required"), which the banner left out.
    expect(out).toContain(
      `npx tsx demo/runs-file.ts --model N --origin http://127.0.0.1:${port} --out FILE [--failing 0.2] [--uncheckable 0.2]`,
    );
    runner.kill('SIGKILL');
    // Bounded, so that the finally below stops the demo should it stay (a timed-out test never gets there).
    const still = new Promise<string>((resolve) =>
      setTimeout(() => resolve('still running after 10 s'), 10_000),
    );
    expect(await Promise.race([exited, still])).toBe(0);
    expect(out).toContain(`demo: the runner that started it (process ${runner.pid}) is gone, shutting down`);
    expect(fs.existsSync(demoCredentialsFile(port))).toBe(false);
  } finally {
    runner.kill('SIGKILL');
    demo.kill('SIGKILL');
  }
});

test('a demo a job starts in its own process (npm run demo -- --scenario: startDemo({startedBy})) says that job started it, so another invocation is refused it rather than borrowing a demo that ends with the job (README audit 59b: a partial run borrowed it, startedBy null)', async () => {
  const demo = await startDemo({ port: 0, quiet: true, startedBy: process.ppid });
  try {
    const answer = (await (await fetch(`${demo.origin}/healthz`)).json()) as Record<string, unknown>;
    expect(answer.startedBy).toBe(process.ppid);
    expect(
      demoProblem(
        demo.port,
        `${demo.origin}/healthz`,
        answer.checkout,
        answer.startedBy,
        String(answer.startedAt),
      ),
    ).toContain('started by another invocation');
  } finally {
    await demo.close();
  }
});
