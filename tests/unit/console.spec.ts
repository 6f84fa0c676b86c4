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
