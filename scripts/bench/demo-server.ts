import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { tsScript } from '../../lib/run/settings';

/** The benchmark's own demo platform (`node scripts/run-ts.cjs demo/server.ts` on a port of its own). */

/** Ports other sessions use on this machine: never taken by the benchmark. */
const RESERVED: readonly [number, number][] = [
  [4173, 4175],
  [4183, 4195],
];

function reserved(port: number): boolean {
  return [port, port + 1, port + 2].some((p) => RESERVED.some(([lo, hi]) => p >= lo && p <= hi));
}

function free(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** The first port from `wanted` on whose triple (port, +1, +2) is free and not reserved. */
export async function freeTriple(wanted: number): Promise<number> {
  for (let port = wanted; port < wanted + 300; port += 3) {
    if (reserved(port)) continue;
    if ((await free(port)) && (await free(port + 1)) && (await free(port + 2))) return port;
  }
  throw new Error(`bench: no free port triple from ${wanted}`);
}

export interface BenchDemo {
  port: number;
  origin: string;
  portalBOrigin: string;
  reset(): Promise<void>;
  stats(): Promise<Record<string, Record<string, number>>>;
  stop(): Promise<void>;
}

export async function startBenchDemo(root: string, port: number, logFile: string): Promise<BenchDemo> {
  const origin = `http://127.0.0.1:${port}`;
  const log = fs.openSync(logFile, 'w');
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('L1_')) env[k] = v;
  env.L1_DEMO_PORT = String(port);
  // Its own process group: stopping it reaches the server and nothing else. Started as the project
  // starts its scripts (tsScript: one Node process, not npx, tsx and the server).
  const child: ChildProcess = spawn(...tsScript(path.join('demo', 'server.ts')), {
    cwd: root,
    env,
    stdio: ['ignore', log, log],
    detached: true,
  });
  let exited = false;
  child.on('exit', () => (exited = true));
  const stop = async () => {
    if (exited || child.pid === undefined) return;
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      return;
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, 5000);
    await gone;
    clearTimeout(timer);
    fs.closeSync(log);
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) throw new Error(`bench: the demo server exited at start (see ${logFile})`);
    try {
      const res = await fetch(`${origin}/healthz`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`bench: the demo server did not answer ${origin}/healthz within 60 s`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    port,
    origin,
    portalBOrigin: `http://127.0.0.1:${port + 1}`,
    async reset() {
      const res = await fetch(`${origin}/__demo/reset`, { method: 'POST' });
      if (!res.ok) throw new Error(`bench: POST /__demo/reset answered ${res.status}`);
    },
    async stats() {
      const res = await fetch(`${origin}/__demo/stats`);
      return (await res.json()) as Record<string, Record<string, number>>;
    },
    stop,
  };
}
