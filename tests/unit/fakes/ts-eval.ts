import { ROOT } from '../../../lib/run/settings';

/**
 * `node --require tsx/cjs -e CODE`: a test's one line that requires the project's TypeScript
 * modules, through tsx's hook (scripts/run-ts.cjs, which `tsScript` starts, runs script files).
 */
export function tsEval(code: string): [string, string[]] {
  return [process.execPath, ['--require', require.resolve('tsx/cjs', { paths: [ROOT] }), '-e', code]];
}
