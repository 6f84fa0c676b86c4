import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from './test-type';
import { ROOT } from '../../lib/run/settings';

/**
 * Issue 16, deliverable 3: the settings module has no side effect on import. Importing it once
 * loaded `.env` into process.env and fixed an invocation id, so every script copied its defaults
 * rather than import it. Proven in a fresh Node (the test process has imported it already): a
 * `.env` in the working folder, the output folders pointed into a temporary one.
 */
test('importing lib/run/settings.ts and lib/run/invocation.ts changes no variable (a .env in the working folder is not loaded, as dotenv/config would) and writes no file', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'l1-settings-import-'));
  try {
    fs.writeFileSync(path.join(dir, '.env'), 'L1_WORKERS=3\nL1_BATCH_DATE=2025-11-24\n');
    const outputs = {
      L1_STATE_DIR: path.join(dir, 'state'),
      L1_VERDICTS_DIR: path.join(dir, 'verdicts'),
      L1_ALLURE_RESULTS_DIR: path.join(dir, 'allure-results'),
    };
    const script = `
      const before = JSON.stringify(process.env);
      require(${JSON.stringify(path.join(ROOT, 'lib/run/settings.ts'))});
      require(${JSON.stringify(path.join(ROOT, 'lib/run/invocation.ts'))});
      const imported = JSON.stringify(process.env) === before;
      process.stdout.write(JSON.stringify({ imported, workers: process.env.L1_WORKERS ?? null }));
    `;
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('L1_')));
    const child = spawnSync(process.execPath, ['--require', 'tsx/cjs', '-e', script], {
      cwd: dir,
      env: { ...env, ...outputs, NODE_PATH: path.join(ROOT, 'node_modules') },
      encoding: 'utf8',
    });
    expect(child.stderr).toBe('');
    expect(JSON.parse(child.stdout)).toEqual({ imported: true, workers: null });
    expect(fs.readdirSync(dir)).toEqual(['.env']);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
