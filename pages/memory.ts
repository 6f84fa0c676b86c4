import fs from 'node:fs';

/**
 * The report page's memory, bounded (README.md § Security and limits, L1_PAGE_MAX_MB): while a
 * page loads and its DATA is read, the memory of the Chromium renderers under this process is
 * sampled from /proc every 200 ms, all of them together (`pageBytes`), with what the browser's
 * other processes took on meanwhile (`growthSince`: Blob data); over the limit `onOver` is
 * called (the collector then closes that browser, the run is an error and the next run gets a
 * fresh browser). Where /proc is missing (not Linux) nothing is sampled.
 */
const PAGE = 4096;

function parentOf(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // pid (comm) state ppid …; comm may hold spaces and parentheses.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

/** The children of a process from /proc/<pid>/task/<tid>/children, or undefined where Linux has none. */
function childrenOf(pid: number): number[] | undefined {
  let tasks: string[];
  try {
    tasks = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const out: number[] = [];
  for (const tid of tasks) {
    let text: string;
    try {
      text = fs.readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT' && tid === String(pid)) return undefined;
      continue;
    }
    for (const child of text.split(' ')) if (child.trim()) out.push(Number(child));
  }
  return out;
}

/** Every process below `root`: walked down from it (a few files), else found by scanning /proc. */
export function descendantsOf(root: number): number[] {
  const out: number[] = [];
  const stack = [root];
  while (stack.length) {
    const children = childrenOf(stack.pop()!);
    if (children === undefined) return scanDescendants(root);
    out.push(...children);
    stack.push(...children);
  }
  return out;
}

/** Without /proc/<pid>/task/<tid>/children (kernels without CONFIG_PROC_CHILDREN): every pid's parent. */
export function scanDescendants(root: number): number[] {
  let pids: number[];
  try {
    pids = fs
      .readdirSync('/proc')
      .filter((n) => /^\d+$/.test(n))
      .map(Number);
  } catch {
    return [];
  }
  const parents = new Map(pids.map((p) => [p, parentOf(p)]));
  const under = (pid: number): boolean => {
    for (let p: number | undefined = parents.get(pid), hops = 0; p && hops < 16; p = parents.get(p), hops++)
      if (p === root) return true;
    return false;
  };
  return pids.filter((pid) => pid !== root && under(pid));
}

/** A renderer's resident bytes, and of them those it shares (files mapped, shared memory). */
export interface Resident {
  resident: number;
  shared: number;
}

/** A Chromium process below the worker: a renderer (a page's), or another (the browser, its helpers). */
export interface ChromiumProcess extends Resident {
  pid: number;
  renderer: boolean;
}

function chromiumProcesses(root: number): ChromiumProcess[] {
  const out: ChromiumProcess[] = [];
  for (const pid of descendantsOf(root)) {
    try {
      const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      const renderer = cmdline.includes('--type=renderer');
      if (!renderer && !/chrom|headless_shell/i.test(cmdline.split('\0')[0] ?? '')) continue;
      // statm: size resident shared … (pages); shared = resident file pages and shared memory.
      const [, resident, shared] = fs.readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ').map(Number);
      out.push({ pid, renderer, resident: (resident ?? 0) * PAGE, shared: (shared ?? 0) * PAGE });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

function renderers(root: number): Resident[] {
  return chromiumProcesses(root).filter((p) => p.renderer);
}

/** Resident bytes of the renderers descending from `root`. */
export function rendererBytes(root: number): number[] {
  return renderers(root).map((r) => r.resident);
}

/**
 * The memory of the renderers descending from `root`, together: the resident bytes of the largest,
 * and what each other one holds of its own (resident, not shared). L1_PAGE_MAX_MB bounds the
 * report page, and a page is more than one renderer when it opens windows (pages/box.ts closes
 * them, but a window lives until then) or holds frames of another site: taking the largest
 * renderer alone, a page that spread its memory over popups was never over the limit. The pages
 * every renderer maps alike (Chromium's code, fonts) are counted once, not once per renderer: a
 * blank renderer shares most of its ~100 MB resident.
 */
export function pageBytes(root: number): number {
  return togetherBytes(renderers(root));
}

/** The arithmetic of `pageBytes`: the largest renderer whole, of the others what is their own. */
export function togetherBytes(all: readonly Resident[]): number {
  if (all.length === 0) return 0;
  const largest = all.reduce((a, b) => (b.resident > a.resident ? b : a));
  return all.reduce(
    (sum, r) => (r === largest ? sum : sum + Math.max(0, r.resident - r.shared)),
    largest.resident,
  );
}

/**
 * What the browser's other processes took on since the watch began, each from when it was first
 * seen: of each, the growth of what is its own (resident, not shared). A page keeps memory there
 * too, out of its renderers' reach: Blob data lives in the browser process (a page that made 200
 * Blobs of 10 MB grew the browser process to 2.1 GB with its renderer at 183 MB; hostile audit of
 * 2026-11-27).
 */
export function growthSince(baseline: Map<number, number>, others: readonly ChromiumProcess[]): number {
  let grown = 0;
  for (const p of others) {
    const own = Math.max(0, p.resident - p.shared);
    if (!baseline.has(p.pid)) baseline.set(p.pid, own);
    grown += Math.max(0, own - baseline.get(p.pid)!);
  }
  return grown;
}

/**
 * Samples the report page's memory every 200 ms until the returned function is called: its
 * renderers together (`pageBytes`) and what the browser's other processes took on since the watch
 * began (`growthSince`); over `limitBytes`, `onOver` is called once with that sum.
 */
export function watchPageMemory(limitBytes: number, onOver: (bytes: number) => void): () => void {
  if (!fs.existsSync('/proc/self/stat')) return () => {};
  let fired = false;
  const baseline = new Map<number, number>();
  const sample = () => {
    const all = chromiumProcesses(process.pid);
    return {
      pages: togetherBytes(all.filter((p) => p.renderer)),
      others: growthSince(
        baseline,
        all.filter((p) => !p.renderer),
      ),
    };
  };
  sample(); // the baseline of the processes there now
  const timer = setInterval(() => {
    if (fired) return;
    const { pages, others } = sample();
    if (pages + others > limitBytes) {
      fired = true;
      onOver(pages + others);
    }
  }, 200);
  timer.unref();
  return () => clearInterval(timer);
}
