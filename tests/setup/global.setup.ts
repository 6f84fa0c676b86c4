import path from 'node:path';
import { INVOCATION, ROOT, settings } from '../../lib/run/config';
import { privateDir, removeStaleInvocations, stateRoot, writePrivate } from '../../lib/run/state';
import { claimOutputs } from '../../lib/report/outputs';

/**
 * Runs once per invocation that runs tests (not for `--list`, which changes nothing): settles the
 * runs (a duplicate label stops here, naming both), claims the output folders (two invocations
 * writing one folder is refused), empties them of an earlier invocation's results and makes this
 * invocation's private state folder.
 */
export default function globalSetup(): void {
  settings();
  claimOutputs();
  privateDir(INVOCATION.root);
  // The teardown writes outputs only for an invocation whose setup claimed them (Playwright runs
  // the teardown even when this setup failed, e.g. refused a folder another invocation writes).
  writePrivate(path.join(INVOCATION.root, 'claimed'), new Date().toISOString());
  removeStaleInvocations(ROOT);
  privateDir(stateRoot(ROOT));
  privateDir(path.join(ROOT, '.l1'));
  for (const dir of [INVOCATION.auth, INVOCATION.evidence, INVOCATION.records]) privateDir(dir);
}
