import { expect, test } from '@playwright/test';
import { selectionFromArgv } from '../../lib/run/selection';
import { outputDirFromArgv } from '../setup/cli';

/** What an invocation selected, from the runner's command line (recorded in every verdict file). */

const argv = (...args: string[]) => ['/usr/bin/node', '/work/node_modules/.bin/playwright', 'test', ...args];

test.describe('selectionFromArgv', () => {
  test('no filter: complete, not a shard', () => {
    expect(selectionFromArgv(argv(), null)).toEqual({ filters: [], shard: null, complete: true });
  });

  test('--grep item5, -g, --grep=…, --grep-invert and --project are filters, with their value', () => {
    expect(selectionFromArgv(argv('--grep', 'item5'), null)).toEqual({
      filters: ['--grep item5'],
      shard: null,
      complete: false,
    });
    expect(selectionFromArgv(argv('-g', 'item 7'), null).filters).toEqual(['-g item 7']);
    expect(selectionFromArgv(argv('--grep=item5'), null).filters).toEqual(['--grep=item5']);
    expect(selectionFromArgv(argv('--grep-invert', 'item6', '--project', 'checks'), null).filters).toEqual([
      '--grep-invert item6',
      '--project checks',
    ]);
  });

  test('--last-failed and --only-changed are filters without a value', () => {
    expect(selectionFromArgv(argv('--last-failed', 'tests/checks.spec.ts'), null).filters).toEqual([
      '--last-failed',
      'tests/checks.spec.ts',
    ]);
    expect(selectionFromArgv(argv('--only-changed'), null).complete).toBe(false);
  });

  test('a file or line filter is a filter', () => {
    expect(selectionFromArgv(argv('tests/checks.spec.ts:12'), null)).toMatchObject({
      filters: ['tests/checks.spec.ts:12'],
      complete: false,
    });
  });

  test('--shard is not a filter, and is recorded as i/n from the runner', () => {
    expect(selectionFromArgv(argv('--shard', '2/3'), { current: 2, total: 3 })).toEqual({
      filters: [],
      shard: '2/3',
      complete: true,
    });
    expect(selectionFromArgv(argv('--shard=1/3'), { current: 1, total: 3 }).complete).toBe(true);
  });

  test('options that take a value are skipped with it: --reporter=dot, --workers 2, -c, -j, --retries', () => {
    const selection = selectionFromArgv(
      argv(
        '--reporter=dot',
        '--workers',
        '2',
        '-c',
        'playwright.config.ts',
        '-j',
        '4',
        '--retries',
        '1',
        '-x',
      ),
      null,
    );
    expect(selection).toEqual({ filters: [], shard: null, complete: true });
    expect(selectionFromArgv(argv('--reporter', 'line', '--grep', 'item3'), null).filters).toEqual([
      '--grep item3',
    ]);
  });

  test('--update-snapshots takes its value only when one follows', () => {
    expect(selectionFromArgv(argv('--update-snapshots', '--grep', 'item4'), null).filters).toEqual([
      '--grep item4',
    ]);
    expect(selectionFromArgv(argv('--update-snapshots', 'all', 'tests/x.spec.ts'), null).filters).toEqual([
      'tests/x.spec.ts',
    ]);
  });

  test('only what follows `test` is read (the node and runner paths are not file filters)', () => {
    expect(selectionFromArgv(['/usr/bin/node', 'cli.js', 'merge-reports', 'blob'], null).filters).toEqual([]);
  });
});

test.describe('outputDirFromArgv (tests/setup/cli.ts): where --last-failed reads .last-run.json', () => {
  test('--output DIR and --output=DIR replace the config folder, relative to the current folder', () => {
    expect(outputDirFromArgv(['node', 'playwright', 'test', '--output', 'out'], '/w')).toBe('/w/out');
    expect(outputDirFromArgv(['test', '--output=/tmp/o', '--last-failed'], '/w')).toBe('/tmp/o');
    expect(outputDirFromArgv(['test', '--output', '../x'], '/w/a')).toBe('/w/x');
    // Playwright has no -o: it refuses it, so it names no folder here either.
    expect(outputDirFromArgv(['test', '-o', '../x'], '/w/a')).toBeUndefined();
  });

  test('none given, or a flag without its value: the config folder stays', () => {
    expect(outputDirFromArgv(['test', '--last-failed'], '/w')).toBeUndefined();
    expect(outputDirFromArgv(['test', '--output'], '/w')).toBeUndefined();
    expect(outputDirFromArgv(['test', '--output-dir', 'x'], '/w')).toBeUndefined();
  });
});
