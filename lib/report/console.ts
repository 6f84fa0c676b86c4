import fs from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';

/**
 * The invocation's console, kept (README.md § Security and limits): everything the runner prints —
 * Playwright's reporters, the workers' output it relays, the suite's own lines — is masked before
 * it reaches the terminal (a CI log the redaction guard never sees) and also appended to
 * `console.log` in the verdict folder, which the guard scans with every other output. The file gets
 * the text without terminal colour and cursor codes (`FORCE_COLOR=1` put 86 of them into a CI
 * artifact: CLI audit of 2026-11-27); the terminal gets them as the reporters wrote them, unless a
 * secret split by one is found only once they are out (then the terminal gets the plain text).
 */
export function teeConsole(file: string, mask: (text: string) => string): () => void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // Opened once and appended to at each write (a dot reporter writes once a test; opening and
  // closing the file each time cost as much as the rest of the write).
  let fd: number | undefined = fs.openSync(file, 'w');
  const streams = [process.stdout, process.stderr] as const;
  const originals = streams.map((s) => s.write.bind(s));
  streams.forEach((stream, i) => {
    const write = originals[i]!;
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      const text =
        typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : String(chunk);
      // Stripped before it is masked: a secret split by a colour code (a diff's highlight) is whole
      // again in the plain text, and masked there (review of 2026-11-27). The terminal keeps its
      // colours unless masking the coloured text missed something the plain text shows.
      const masked = mask(text);
      const plain = mask(stripVTControlCharacters(text));
      const shown = stripVTControlCharacters(masked) === plain ? masked : plain;
      let lost: string | undefined;
      if (fd !== undefined)
        try {
          writeWhole(fd, plain);
        } catch (e) {
          // A full disk, or the verdict folder went away: the terminal still gets every line, and
          // is told once that the file stops here. It stopped unsaid, a console.log cut short that
          // read whole (file-system audit of 2026-11-28).
          closeQuietly(fd);
          fd = undefined;
          lost = `console.log: ${file} holds the console up to here, not past it (${e instanceof Error ? e.message : String(e)})\n`;
        }
      const written = (write as (c: string, ...r: unknown[]) => boolean)(shown, ...rest);
      // To stderr: a reporter writing its report to stdout (`--reporter=json`) keeps it whole.
      if (lost) (originals[1] as (c: string) => boolean)(lost);
      return written;
    }) as typeof stream.write;
  });
  return () => {
    streams.forEach((stream, i) => {
      stream.write = originals[i] as typeof stream.write;
    });
    if (fd !== undefined) closeQuietly(fd);
    fd = undefined;
  };
}

/** All of `text`, however many writes it takes (one may write part of it as a disk fills). */
function writeWhole(fd: number, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  for (let done = 0; done < bytes.length;) done += fs.writeSync(fd, bytes, done, bytes.length - done);
}

function closeQuietly(fd: number): void {
  try {
    fs.closeSync(fd);
  } catch {
    // closed already
  }
}
