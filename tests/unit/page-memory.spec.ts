import { spawn } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { descendantsOf, rendererBytes, scanDescendants } from '../../pages/memory';

/**
 * The page-memory bound (README.md § Security and limits, L1_PAGE_MAX_MB) samples the renderers
 * below the worker: the process tree walked down from it (/proc/<pid>/task/<tid>/children) must
 * find a grandchild, and agree with the scan of every /proc entry it replaces (Linux, as the suite).
 */
test('the walk down from a process finds its children and grandchildren, as the /proc scan does', async () => {
  // sh → sleep (grandchild of this process).
  const child = spawn('sh', ['-c', 'sleep 30 & wait'], { stdio: 'ignore' });
  let grandchildren: number[] = [];
  try {
    await expect.poll(() => (grandchildren = scanDescendants(child.pid!)).length).toBeGreaterThan(0);
    const walked = descendantsOf(process.pid);
    expect(walked).toContain(child.pid);
    for (const pid of grandchildren) expect(walked).toContain(pid);
    expect(descendantsOf(child.pid!).sort()).toEqual([...grandchildren].sort());
    // No renderer below a shell and a sleep.
    expect(rendererBytes(child.pid!)).toEqual([]);
  } finally {
    for (const pid of grandchildren) process.kill(pid, 'SIGKILL');
    child.kill('SIGKILL');
  }
});
