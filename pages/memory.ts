import fs from 'node:fs';

/**
 * The report page's memory, bounded (README.md § Security and limits, L1_PAGE_MAX_MB): while a
 * page loads and its DATA is read, the resident memory of every Chromium renderer under this
 * process is sampled from /proc every 200 ms; one over the limit calls `onOver` (the collector
 * then closes that browser, the run is an error and the next run gets a fresh browser). Where
 * /proc is missing (not Linux) nothing is sampled.
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

/** Resident bytes of the renderers descending from `root`. */
export function rendererBytes(root: number): number[] {
  const out: number[] = [];
  for (const pid of descendantsOf(root)) {
    try {
      if (!fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer')) continue;
      const resident = Number(fs.readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]);
      out.push(resident * PAGE);
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

export function watchPageMemory(limitBytes: number, onOver: (bytes: number) => void): () => void {
  if (!fs.existsSync('/proc/self/stat')) return () => {};
  let fired = false;
  const timer = setInterval(() => {
    if (fired) return;
    const top = Math.max(0, ...rendererBytes(process.pid));
    if (top > limitBytes) {
      fired = true;
      onOver(top);
    }
  }, 200);
  timer.unref();
  return () => clearInterval(timer);
}
