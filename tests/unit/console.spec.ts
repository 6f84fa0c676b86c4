import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from './test-type';
import { teeConsole } from '../../lib/report/console';
import { tempDir } from './fakes/temp';

/** lib/report/console.ts: the invocation's console, masked, kept in the verdict folder. */
test('console.log holds what the terminal got, masked, without colour codes (FORCE_COLOR=1); the terminal keeps them, but for a line whose secret a colour code split', () => {
  const file = path.join(tempDir('console'), 'verdicts', 'console.log');
  const seen: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string) => (seen.push(chunk), true)) as typeof process.stdout.write;
  let restore: (() => void) | undefined;
  try {
    restore = teeConsole(file, (t) => t.replace('s3cret', '***'));
    process.stdout.write('\u001b[32m✓\u001b[39m item 5 \u001b[2mtoken s3cret\u001b[22m\n');
    // A secret split by a colour code: masked in the file, where it is whole again.
    process.stdout.write('diff s3\u001b[31mcr\u001b[39met\n');
  } finally {
    restore?.();
    process.stdout.write = write;
  }
  expect(fs.readFileSync(file, 'utf8')).toBe('✓ item 5 token ***\ndiff ***\n');
  expect(seen).toEqual(['\u001b[32m✓\u001b[39m item 5 \u001b[2mtoken ***\u001b[22m\n', 'diff ***\n']);
});

test('a console.log the disk cannot take past some line says so once, on stderr, and the terminal keeps every line (file-system audit: it stopped unsaid)', () => {
  const file = path.join(tempDir('console'), 'verdicts', 'console.log');
  const out: string[] = [];
  const err: string[] = [];
  const [stdout, stderr] = [
    process.stdout.write.bind(process.stdout),
    process.stderr.write.bind(process.stderr),
  ];
  process.stdout.write = ((chunk: string) => (out.push(chunk), true)) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string) => (err.push(chunk), true)) as typeof process.stderr.write;
  const writeSync = fs.writeSync;
  let restore: (() => void) | undefined;
  try {
    restore = teeConsole(file, (t) => t);
    process.stdout.write('line 1\n');
    (fs as { writeSync: unknown }).writeSync = () => {
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    };
    process.stdout.write('line 2\n');
    process.stdout.write('line 3\n');
  } finally {
    (fs as { writeSync: unknown }).writeSync = writeSync;
    restore?.();
    process.stdout.write = stdout;
    process.stderr.write = stderr;
  }
  expect(out).toEqual(['line 1\n', 'line 2\n', 'line 3\n']);
  expect(err).toEqual([
    `console.log: ${file} holds the console up to here, not past it (ENOSPC: no space left on device, write)\n`,
  ]);
  expect(fs.readFileSync(file, 'utf8')).toBe('line 1\n');
});
