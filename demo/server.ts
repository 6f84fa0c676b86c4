import fs from 'node:fs';
import http from 'node:http';
import { demoPortSetting } from '../lib/run/settings';
import { ownerAlive } from '../lib/run/state';
import type { ProfileBSettings, RunInput } from '../lib/run/types';
import { DemoApp, type Origins } from './app';
import { makeRegistry, writeRegistry } from './credentials';
import { foreignHandler } from './hostile';
import { apiError, closeServer, isLoopback, listen } from './http';
import {
  DEMO_CREDENTIALS_FILE,
  DEMO_DEFAULT_PORT,
  demoCredentialsFile,
  demoProfileB,
  demoRuns,
} from './runs';
import { MODEL_MAX } from './model/projects';
import { scenarioRuns } from './scenarios';

/**
 * The bundled demo platform: a real HTTP server on loopback that implements the platform contract
 * (docs/contract.md §3 to §5). Three listeners: the main origin; port + 1, the Profile B group's own
 * portal host (the same app); port + 2, a "foreign" origin that only the hostile login scenario
 * points to (README.md § Security and limits). Credentials are random at each start and written to a 0600 file; they are
 * never printed, logged or put in a page. Routes: app.ts; handlers: handlers-*.ts, faults.ts, hostile.ts.
 */

export { DEMO_CREDENTIALS_FILE, DEMO_DEFAULT_PORT, demoCredentialsFile };

export interface DemoOptions {
  /** Default L1_DEMO_PORT or 4173; 0 picks a free triple (port, port + 1, port + 2). */
  port?: number;
  /** A loopback host only; default 127.0.0.1. */
  host?: string;
  quiet?: boolean;
  /** Default: demoCredentialsFile(port). */
  credentialsFile?: string;
  /**
   * The process of the job that starts this demo in its own process and stops it when it ends
   * (`npm run demo -- --scenario`), said by /healthz as `startedBy` so that no other invocation
   * borrows it; default L1_DEMO_STARTED_BY (the runner whose webServer it is).
   */
  startedBy?: number;
}

export interface DemoServer {
  host: string;
  port: number;
  origin: string;
  portalBOrigin: string;
  /** Port + 2: the origin `hostile-login-foreign-origin` moves its login page to. */
  foreignOrigin: string;
  /** `{portal_b_host}`: 127.0.0.1:<port + 1>. */
  portalBHost: string;
  loginUrl: string;
  credentialsFile: string;
  runs: RunInput[];
  scenarioRuns: Record<string, RunInput>;
  profileB: Required<ProfileBSettings>;
  /**
   * Answers every slow answer that is sleeping now (the `slow` fault, a page with `?slow=1`), as if its L1_DEMO_SLOW_MS
   * had passed. A self-test that needs an invocation held only until something else happened ends
   * the hold with it.
   */
  releaseSlow(): void;
  /** How many slow answers are sleeping now: a self-test stops an invocation while one is. */
  sleeping(): number;
  close(): Promise<void>;
}

type Listener = (req: http.IncomingMessage, res: http.ServerResponse) => void;

async function listenTriple(
  app: DemoApp,
  host: string,
  wanted: number,
): Promise<{ servers: http.Server[]; port: number }> {
  const handler: Listener = (req, res) => {
    app.handle(req, res).catch((e: unknown) => {
      process.stderr.write(
        `demo: internal error on ${req.method ?? ''} ${(req.url ?? '').split('?')[0] ?? ''}: ${e instanceof Error ? e.message : String(e)}\n`,
      );
      if (!res.headersSent) apiError(res, 500, '演示服务器内部错误');
      else res.end();
    });
  };
  const foreign = foreignHandler(app);
  for (let attempt = 0; attempt < 20; attempt++) {
    const main = http.createServer(handler);
    const others = [http.createServer(handler), http.createServer(foreign)];
    const port = await listen(main, wanted, host).catch((e: unknown) => {
      throw new Error(
        `demo: port ${wanted} is in use by another process (a demo of this checkout or another, or anything else): stop it or set L1_DEMO_PORT to a free port`,
        { cause: e },
      );
    });
    const up: http.Server[] = [main];
    try {
      for (const [i, server] of others.entries()) {
        await listen(server, port + 1 + i, host);
        up.push(server);
      }
      return { servers: up, port };
    } catch (e) {
      await Promise.all(up.map(closeServer));
      if (wanted !== 0)
        throw new Error(
          `demo: port ${port + up.length} (${up.length === 1 ? 'Profile B portal, port + 1' : 'foreign origin, port + 2'}) is in use: stop what holds it or set L1_DEMO_PORT to another port`,
          { cause: e },
        );
    }
  }
  throw new Error('demo: found no free triple of ports (port, port + 1, port + 2)');
}

/** Starts the demo platform on loopback: main origin on `port`, Profile B portal on `port + 1`. */
export async function startDemo(opts: DemoOptions = {}): Promise<DemoServer> {
  const host = opts.host ?? '127.0.0.1';
  if (!isLoopback(host)) throw new Error(`demo: refusing to listen on ${host}: loopback only (127.0.0.1)`);
  // Without a port, L1_DEMO_PORT as the settings read it (the environment over `.env`).
  const wanted = opts.port ?? demoPortSetting();
  if (!Number.isInteger(wanted) || wanted < 0 || wanted > 65533)
    throw new Error(`demo: invalid port ${String(wanted)}`);
  const registry = makeRegistry();
  const origins: Origins = { main: '', portalB: '', foreign: '' };
  const app = new DemoApp(registry, origins, opts.startedBy);
  const { servers, port } = await listenTriple(app, host, wanted);
  const urlHost = host.includes(':') ? `[${host}]` : host;
  origins.main = `http://${urlHost}:${port}`;
  origins.portalB = `http://${urlHost}:${port + 1}`;
  origins.foreign = `http://${urlHost}:${port + 2}`;
  const credentialsFile = opts.credentialsFile ?? demoCredentialsFile(port);
  const written = writeRegistry(credentialsFile, registry);
  const portalBHost = `${urlHost}:${port + 1}`;
  const demo: DemoServer = {
    host,
    port,
    origin: origins.main,
    portalBOrigin: origins.portalB,
    foreignOrigin: origins.foreign,
    portalBHost,
    loginUrl: `${origins.main}/login`,
    credentialsFile,
    runs: demoRuns(origins.main, origins.portalB),
    scenarioRuns: scenarioRuns(origins.main, origins.portalB),
    profileB: demoProfileB(portalBHost),
    releaseSlow: () => {
      for (const wake of [...app.slow]) wake();
    },
    sleeping: () => app.slow.size,
    close: async () => {
      for (const cancel of [...app.pending]) cancel();
      await Promise.all(servers.map(closeServer));
      // Remove the registry only if it is still ours (another demo may have replaced it).
      try {
        if (fs.readFileSync(credentialsFile, 'utf8') === written) fs.rmSync(credentialsFile);
      } catch {
        // already gone
      }
    },
  };
  if (!opts.quiet) printBanner(demo);
  return demo;
}

function printBanner(demo: DemoServer): void {
  const lines = [
    'L1 demo platform (loopback only)',
    `  main origin        ${demo.origin}`,
    `  Profile B portal   ${demo.portalBOrigin}   (L1_PROFILE_B_HOST=${demo.profileB.host})`,
    `  foreign origin     ${demo.foreignOrigin}   (hostile login scenario only)`,
    `  login page         ${demo.loginUrl}`,
    `  credentials file   ${demo.credentialsFile}   (0600; random at each start; never printed)`,
    `  Profile B          group ${demo.profileB.groupName}, companyId ${demo.profileB.companyId}, brand code ${demo.profileB.brandCode}`,
    `  request counts     GET ${demo.origin}/__demo/stats · POST ${demo.origin}/__demo/reset`,
    '  bundled runs:',
    ...demo.runs.flatMap((r) => [
      `    ${r.label ?? ''}`,
      `      html      ${r.htmlUrl}`,
      `      platform  ${r.platformUrl}`,
    ]),
    `  ${Object.keys(demo.scenarioRuns).length} scenario runs: see demo/README.md (npx tsx demo/runs-file.ts --list)`,
    `  ${MODEL_MAX} generated runs, the unit families' cases: npx tsx demo/runs-file.ts --model N --origin ${demo.origin} --out FILE [--failing 0.2] [--uncheckable 0.2]`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** How often a demo started by a runner looks whether that runner still runs. */
const RUNNER_WATCH_MS = 1000;

// Started as a script: `npx tsx demo/server.ts`, or from its bundle (scripts/run-ts.cjs), which
// gives the script's path as `process.argv[1]` and each module its own `__filename`. In another
// script's bundle (scripts/main.ts starts the demo through `startDemo`) neither holds.
if (require.main === module || process.argv[1] === __filename) {
  startDemo()
    .then((demo) => {
      let stopping = false;
      const stop = (signal: string) => {
        if (stopping) return;
        stopping = true;
        process.stdout.write(`demo: ${signal}, shutting down\n`);
        demo.close().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      };
      process.once('SIGINT', () => stop('SIGINT'));
      process.once('SIGTERM', () => stop('SIGTERM'));
      // Started by a Playwright runner (playwright.config.ts webServer): that runner stops it when
      // it ends, unless it was killed (SIGKILL, a CI timeout), which left the demo holding its
      // ports and its credentials file for the next invocation to trip on. It now ends with it.
      const runner = Number(process.env.L1_DEMO_STARTED_BY);
      if (Number.isInteger(runner) && runner > 0) {
        const since = new Date().toISOString();
        setInterval(() => {
          if (!ownerAlive(runner, since)) stop(`the runner that started it (process ${runner}) is gone`);
        }, RUNNER_WATCH_MS).unref();
      }
    })
    .catch((e: unknown) => {
      process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
      process.exit(1);
    });
}
