import fs from 'node:fs';

/**
 * The report page's memory, bounded (README.md § Security and limits, L1_PAGE_MAX_MB): while a
 * page loads and its DATA is read, the memory of the Chromium renderers under this process is
 * sampled from /proc every 200 ms, all of them together (`pageBytes`); over the limit `onOver` is
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

function renderers(root: number): Resident[] {
  const out: Resident[] = [];
  for (const pid of descendantsOf(root)) {
    try {
      if (!fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer')) continue;
      // statm: size resident shared … (pages); shared = resident file pages and shared memory.
      const [, resident, shared] = fs.readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ').map(Number);
      out.push({ resident: (resident ?? 0) * PAGE, shared: (shared ?? 0) * PAGE });
    } catch {
      // gone meanwhile
    }
  }
  return out;
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

export function watchPageMemory(limitBytes: number, onOver: (bytes: number) => void): () => void {
  if (!fs.existsSync('/proc/self/stat')) return () => {};
  let fired = false;
  const timer = setInterval(() => {
    if (fired) return;
    const bytes = pageBytes(process.pid);
    if (bytes > limitBytes) {
      fired = true;
      onOver(bytes);
    }
  }, 200);
  timer.unref();
  return () => clearInterval(timer);
}
