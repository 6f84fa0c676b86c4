import crypto from 'node:crypto';
import path from 'node:path';
import type { Selection } from '../schema/verdict';
import type { Night } from './night';
import { selectionFromArgv, shardFromArgv } from './selection';
import type { Settings } from './settings';

/**
 * One invocation of `playwright test`, as the runner fixed it when it loaded the config: its id and
 * private folder, what the command line selected, the batch date, and where its outputs go. The
 * runner puts it in `L1_INVOCATION`; its workers (which load the config again, with their own argv
 * and clock) read the same facts from there.
 *
 *   <L1_STATE_DIR or .l1/state>/invocations/<id>/{auth,runs/<slug>}/
 *
 * Folders are 0700, files 0600 (they hold cookies and evidence); the folder is removed when the
 * invocation ends unless L1_KEEP_STATE=1.
 */
export interface Invocation {
  id: string;
  startedAt: string;
  /** The private folder of this invocation. */
  dir: string;
  auth: string;
  /** One folder per run: its judged result and the records of its tests. */
  runs: string;
  selection: Selection;
  night?: Night;
  outputs: Outputs;
}

/** Where an invocation writes (lib/report/outputs.ts decides). */
export interface Outputs {
  verdicts: string;
  allureResults: string;
  /** A partial invocation writes to a folder of its own, never into a complete night's. */
  partial: boolean;
  /**
   * That folder of its own (`reports/partial/<stamp>`), when it got one: Playwright's output folder
   * goes there too (lib/report/outputs.ts `playwrightOutputDir`).
   */
  folder?: string;
  /** Why the outputs are not the configured folders (said at start). */
  note?: string;
}

const ENV = 'L1_INVOCATION';
/** Self-tests name their invocations (stable state folders). */
const ID_ENV = 'L1_INVOCATION_ID';

/**
 * The id of the invocation that will begin with this environment: L1_INVOCATION_ID when it is a
 * valid name, else a new one. The main job fixes it for its checks, so that it reads back the
 * handoff of its own checks (handoffFile), never that of another job in the same state folder.
 */
export function invocationIdFor(env: NodeJS.ProcessEnv, now: Date = new Date()): string {
  const given = env[ID_ENV];
  if (given && /^[\w.-]{1,80}$/.test(given)) return given;
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
  return `${stamp}-${process.pid}-${crypto.randomBytes(3).toString('hex')}`;
}

export function invocationFolders(stateDir: string, id: string): Pick<Invocation, 'dir' | 'auth' | 'runs'> {
  const dir = path.join(stateDir, 'invocations', id);
  return { dir, auth: path.join(dir, 'auth'), runs: path.join(dir, 'runs') };
}

/**
 * Made once by the runner (playwright.config.ts): the selection from its command line, the outputs
 * `decide` picks for it, the settings' night; published in the environment its workers inherit.
 */
export function beginInvocation(
  settings: Settings,
  argv: string[],
  decide: (selection: Selection, id: string, now: Date) => Outputs,
  env: NodeJS.ProcessEnv = process.env,
  now = new Date(),
): Invocation {
  const existing = currentInvocation(env);
  if (existing) return existing;
  const id = invocationIdFor(env, now);
  const selection = selectionFromArgv(argv, shardFromArgv(argv));
  const invocation: Invocation = {
    id,
    startedAt: now.toISOString(),
    ...invocationFolders(settings.paths.state, id),
    selection,
    ...(settings.night ? { night: settings.night } : {}),
    outputs: decide(selection, id, now),
  };
  env[ENV] = JSON.stringify(invocation);
  return invocation;
}

/** The invocation this process belongs to (runner or worker), when one has begun. */
export function currentInvocation(env: NodeJS.ProcessEnv = process.env): Invocation | undefined {
  const text = env[ENV];
  if (!text) return undefined;
  try {
    return JSON.parse(text) as Invocation;
  } catch {
    return undefined;
  }
}

/** The invocation, or an error saying this code runs only inside `playwright test`. */
export function invocation(env: NodeJS.ProcessEnv = process.env): Invocation {
  const found = currentInvocation(env);
  if (!found)
    throw new Error(
      'no invocation: this runs only inside `playwright test` (playwright.config.ts begins it)',
    );
  return found;
}
