import { spawn } from 'node:child_process';
import fs from 'node:fs';

/**
 * Runs a command as its own process group and samples the resident memory of the whole process
 * tree (the command and every descendant, found by walking /proc/<pid>/stat parent ids) every
 * `intervalMs`. RSS is summed per process, so pages shared between processes (Chromium's, Node's
 * code) count once per process: an upper bound, the figure `ps` users compare. PSS (from
 * smaps_rollup, shared pages divided among their users) is kept beside it.
 */

/** Process groups of commands still running (stopped by the caller on SIGINT). */
export const runningGroups = new Set<number>();

export interface TreeRun {
  code: number | null;
  wallMs: number;
  /** user + system CPU seconds of the command and its reaped descendants (bash `times`). */
  cpuS: number | undefined;
  peakRssMb: number;
  peakPssMb: number;
  peakProcesses: number;
  /** Distinct node processes seen below the command (Playwright workers, runner, npx, tsx). */
  nodeProcesses: number;
  /** Distinct Chromium browser processes seen (the main process, not its renderers). */
  browsers: number;
  output: string;
}

function readParents(): Map<number, number[]> {
  const children = new Map<number, number[]>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // pid (comm) state ppid …: comm may hold spaces and parentheses, so split after the last ')'.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    const list = children.get(ppid) ?? [];
    list.push(Number(name));
    children.set(ppid, list);
  }
  return children;
}

function descendants(root: number): number[] {
  const children = readParents();
  const out: number[] = [];
  const stack = [root];
  while (stack.length) {
    const pid = stack.pop()!;
    out.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return out;
}

function kb(text: string, field: string): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text);
  return m ? Number(m[1]) : 0;
}

function read(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

export interface TreeOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  intervalMs?: number;
  /** Where the command's output goes (stdout and stderr, as they come). */
  logFile: string;
  /** Measure PSS as well, every `PSS_EVERY_MS`. */
  pss?: boolean;
}

/**
 * How often PSS is read. Reading smaps_rollup walks a process's page tables: on a night of the
 * suite (16 processes, Chromium's among them) it cost the sampler 33 ms of CPU a sample, about a
 * sixth of a core at one sample every 200 ms, taken from the two cores the measured command runs on
 * (and more from the suite's measurements, which have more processes than the floor's). RSS (from
 * /proc/<pid>/status) stays at every sample, about 1 ms.
 */
const PSS_EVERY_MS = 2000;

/** Runs `command args…` under bash (for `times`), sampling its process tree until it exits. */
export async function runTree(command: string, args: string[], options: TreeOptions): Promise<TreeRun> {
  const timesFile = `${options.logFile}.times`;
  fs.rmSync(timesFile, { force: true });
  const script = '"$@"; rc=$?; times > "$BENCH_TIMES_FILE"; exit $rc';
  const started = Date.now();
  const child = spawn('bash', ['-c', script, 'bench', command, ...args], {
    cwd: options.cwd,
    env: { ...options.env, BENCH_TIMES_FILE: timesFile },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  if (child.pid !== undefined) runningGroups.add(child.pid);
  const log = fs.createWriteStream(options.logFile);
  let output = '';
  const take = (d: Buffer) => {
    log.write(d);
    if (output.length < 4_000_000) output += d.toString();
  };
  child.stdout.on('data', take);
  child.stderr.on('data', take);
  let peakRss = 0;
  let peakPss = 0;
  let peakProcesses = 0;
  const nodes = new Set<number>();
  const browsers = new Set<number>();
  let pssReadAt = -Infinity;
  const sample = () => {
    if (child.pid === undefined) return;
    let rss = 0;
    let pss = 0;
    const readPss = options.pss === true && Date.now() - pssReadAt >= PSS_EVERY_MS;
    if (readPss) pssReadAt = Date.now();
    const pids = descendants(child.pid);
    for (const pid of pids) {
      const status = read(`/proc/${pid}/status`);
      rss += kb(status, 'VmRSS');
      if (readPss) pss += kb(read(`/proc/${pid}/smaps_rollup`), 'Pss');
      const name = /^Name:\s+(.*)$/m.exec(status)?.[1] ?? '';
      if (name === 'node' || name.startsWith('MainThread')) nodes.add(pid);
      // A browser's main process: no --type= (renderers, zygotes, GPU, utilities have one); a
      // zombie's cmdline is empty. The /usr/bin/chromium launcher script execs it in place. The
      // kernel cuts names at 15 characters: Debian's headless shell is `chromium-headle`.
      if (/^(chromium|chrome|headless_shell|chromium-headle)$/.test(name)) {
        const cmdline = read(`/proc/${pid}/cmdline`);
        if (cmdline && !cmdline.includes('--type=')) browsers.add(pid);
      }
    }
    peakRss = Math.max(peakRss, rss);
    peakPss = Math.max(peakPss, pss);
    peakProcesses = Math.max(peakProcesses, pids.length);
  };
  const timer = setInterval(sample, options.intervalMs ?? 200);
  const killer = setTimeout(() => {
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
  }, options.timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const wallMs = Date.now() - started;
  if (child.pid !== undefined) runningGroups.delete(child.pid);
  clearInterval(timer);
  clearTimeout(killer);
  await new Promise<void>((resolve) => log.end(resolve));
  // bash `times`: line 2 is the children's "user system", like 1m2.345s 0m3.210s.
  const times = read(timesFile).trim().split('\n')[1];
  fs.rmSync(timesFile, { force: true });
  const seconds = (s: string) => {
    const m = /^(\d+)m([\d.]+)s$/.exec(s);
    return m ? Number(m[1]) * 60 + Number(m[2]) : NaN;
  };
  const cpu = times
    ? times
        .split(/\s+/)
        .map(seconds)
        .reduce((a, b) => a + b, 0)
    : NaN;
  return {
    code,
    wallMs,
    cpuS: Number.isFinite(cpu) ? cpu : undefined,
    peakRssMb: peakRss / 1024,
    peakPssMb: peakPss / 1024,
    peakProcesses,
    nodeProcesses: nodes.size,
    browsers: browsers.size,
    output,
  };
}
