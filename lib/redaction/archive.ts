import { Unzip, UnzipInflate, unzipSync, type UnzipFileInfo } from 'fflate';

/**
 * Zip archives in the outputs, opened with fflate: Playwright blob reports (`blob-report/*.zip`,
 * the CI shards' `reports/**\/blob/*.zip`), the report zip embedded in Playwright's HTML report, and
 * traces should one ever be written. The guard must see inside them: a blob report holds the
 * shard's test output, attachments included.
 */

export interface ZipEntry {
  name: string;
  /** The content, when it could be read (possibly only its start, see `problem`). */
  data?: Buffer;
  /** Why the entry was not read, or not in full; never its content. */
  problem?: string;
  /** Not read because it is larger than the limit (the guard fails: it never passes what it did not read). */
  overLimit?: true;
}

export interface ZipContents {
  entries: ZipEntry[];
  /** Set when the central directory could not be read: the entries come from the local headers. */
  malformed?: string;
}

/** A zip by its first bytes: a local file header, or the end record of an empty archive. */
export function isZip(buf: Uint8Array): boolean {
  if (buf.length < 22) return false;
  const sig = buf[0]! | (buf[1]! << 8) | (buf[2]! << 16) | (buf[3]! << 24);
  return sig === 0x04034b50 || sig === 0x06054b50;
}

/** The entries of a zip from its central directory, without reading their data. Throws when malformed. */
export function listZipEntries(buf: Uint8Array): UnzipFileInfo[] {
  const infos: UnzipFileInfo[] = [];
  unzipSync(buf, {
    filter: (f) => {
      infos.push(f);
      return false;
    },
  });
  return infos;
}

/**
 * Every file entry of a zip with its content: entries declared larger than `maxBytes` are not
 * inflated, and a damaged entry does not hide the others. A zip without a readable central
 * directory (a shard killed while writing) is read from its local headers instead.
 */
export function readZip(buf: Uint8Array, maxBytes: number): ZipContents {
  let infos: UnzipFileInfo[];
  try {
    infos = listZipEntries(buf);
  } catch (e) {
    return { entries: readLocalHeaders(buf, maxBytes), malformed: message(e) };
  }
  const entries: ZipEntry[] = [];
  const wanted: UnzipFileInfo[] = [];
  for (const f of infos) {
    if (f.name.endsWith('/')) continue;
    if (f.originalSize > maxBytes)
      entries.push({ name: f.name, problem: overLimit(f.originalSize, maxBytes), overLimit: true });
    else wanted.push(f);
  }
  for (const batch of batches(wanted, maxBytes)) {
    let files: Record<string, Uint8Array> | undefined;
    try {
      files = inflate(buf, batch);
    } catch {
      files = undefined; // one entry is damaged: read them one by one to tell which
    }
    for (const f of batch) {
      try {
        const data = files && Object.hasOwn(files, f.name) ? files[f.name]! : inflate(buf, [f])[f.name];
        entries.push({ name: f.name, data: toBuffer(data ?? new Uint8Array()) });
      } catch (e) {
        entries.push({ name: f.name, problem: `not readable (${message(e)})` });
      }
    }
  }
  return { entries };
}

/** `not scanned, 300 MiB is over the 200 MiB limit` */
export function overLimit(size: number, maxBytes: number): string {
  return `not scanned, ${mib(size)} is over the ${mib(maxBytes)} limit`;
}

export function mib(n: number): string {
  return `${(n / 1024 / 1024).toFixed(n < 1024 * 1024 ? 3 : 0)} MiB`;
}

/** The entries of `batch` (by name), inflated: fflate bounds each to its declared size. */
function inflate(buf: Uint8Array, batch: UnzipFileInfo[]): Record<string, Uint8Array> {
  const names = new Set(batch.map((f) => f.name));
  return unzipSync(buf, { filter: (f) => names.has(f.name) });
}

/** Entries grouped so that one batch never holds more than `maxBytes` (or a single entry). */
function batches(infos: UnzipFileInfo[], maxBytes: number): UnzipFileInfo[][] {
  const out: UnzipFileInfo[][] = [];
  let current: UnzipFileInfo[] = [];
  let size = 0;
  for (const f of infos) {
    if (current.length && size + f.originalSize > maxBytes) {
      out.push(current);
      current = [];
      size = 0;
    }
    current.push(f);
    size += f.originalSize;
  }
  if (current.length) out.push(current);
  return out;
}

/** The entries of a zip read front to back, as fflate streams it; what a cut entry held so far is kept. */
function readLocalHeaders(buf: Uint8Array, maxBytes: number): ZipEntry[] {
  const entries: ZipEntry[] = [];
  const pending: { entry: ZipEntry; chunks: Uint8Array[] }[] = [];
  const unzip = new Unzip((file) => {
    if (file.name.endsWith('/')) return;
    const entry: ZipEntry = { name: file.name };
    const chunks: Uint8Array[] = [];
    let size = 0;
    let done = false;
    entries.push(entry);
    pending.push({ entry, chunks });
    file.ondata = (err, data, final) => {
      if (done) return;
      if (err) {
        entry.problem = `not readable (${err.message})`;
        done = true;
        return;
      }
      size += data.length;
      if (size > maxBytes) {
        entry.problem = overLimit(size, maxBytes);
        entry.overLimit = true;
        chunks.length = 0;
        done = true;
        file.terminate();
        return;
      }
      chunks.push(data);
      if (final) done = true;
    };
    try {
      file.start();
    } catch (e) {
      entry.problem = `not readable (${message(e)})`;
    }
  });
  unzip.register(UnzipInflate);
  try {
    unzip.push(buf, true);
  } catch {
    // the archive ends inside an entry: keep what was read
  }
  for (const { entry, chunks } of pending) {
    if (chunks.length) entry.data = Buffer.concat(chunks);
    else if (!entry.problem) entry.data = Buffer.alloc(0);
  }
  return entries;
}

function toBuffer(data: Uint8Array): Buffer {
  return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
