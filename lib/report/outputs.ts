import fs from 'node:fs';
import path from 'node:path';
import { INVOCATION, ROOT } from '../run/config';
import { processAlive, readOr } from '../run/state';
import { emptyVerdictFolder } from './verdict-folder';

/**
 * The output folders of an invocation, resolved from the project root whatever the working
 * directory (`-c` from another folder writes where `npm run report` reads).
 */
export function verdictsDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(ROOT, env.L1_VERDICTS_DIR || path.join('reports', 'verdicts'));
}

export function allureResultsDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(ROOT, env.L1_ALLURE_RESULTS_DIR || 'allure-results');
}

const CLAIM = '.l1-invocation';

/**
 * Claims the verdict and Allure folders for this invocation, then empties them of an earlier
 * invocation's results. A folder claimed by another invocation that is still running is refused
 * with a message saying how to separate them: two invocations never mix their outputs.
 */
export function claimOutputs(): void {
  for (const dir of [verdictsDir(), allureResultsDir()]) {
    fs.mkdirSync(dir, { recursive: true });
    const claim = path.join(dir, CLAIM);
    const [pid, id] = readOr(claim, '').split(' ');
    if (pid && Number(pid) !== process.pid && id !== INVOCATION_ID() && processAlive(Number(pid)))
      throw new Error(
        `${dir} is being written by another invocation (process ${pid}): run one at a time, or give each its own L1_VERDICTS_DIR and L1_ALLURE_RESULTS_DIR`,
      );
    fs.writeFileSync(claim, `${process.pid} ${INVOCATION_ID()}`);
  }
  emptyVerdictFolder(verdictsDir());
  const results = allureResultsDir();
  for (const name of fs.readdirSync(results))
    if (name !== CLAIM) fs.rmSync(path.join(results, name), { recursive: true, force: true });
}

export function releaseOutputs(): void {
  for (const dir of [verdictsDir(), allureResultsDir()]) {
    const claim = path.join(dir, CLAIM);
    if (readOr(claim, '').split(' ')[1] === INVOCATION_ID()) fs.rmSync(claim, { force: true });
  }
}

function INVOCATION_ID(): string {
  return path.basename(INVOCATION.root);
}
