import zlib from 'node:zlib';

/**
 * A small ZIP reader on node:zlib for the redaction guard: Playwright traces and report bundles
 * are zips, and a secret inside one must be found. Central directory (zip64 aware), or the local
 * headers of a zip cut short; stored and deflate entries. Malformed input throws ZipError.
 */

export class ZipError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ZipError';
  }
}

export interface ZipRecord {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  size: number;
  /** Offset of the entry's data (after its local header). */
  dataOffset: number;
}

const SIG_LOCAL = 0x04034b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_EOCD = 0x06054b50;
const SIG_ZIP64_LOCATOR = 0x07064b50;
const SIG_ZIP64_EOCD = 0x06064b50;

export function isZip(buf: Buffer): boolean {
  if (buf.length < 22) return false;
  const sig = buf.readUInt32LE(0);
  return sig === SIG_LOCAL || sig === SIG_EOCD;
}

function u64(buf: Buffer, at: number): number {
  return Number(buf.readBigUInt64LE(at));
}

function need(buf: Buffer, at: number, len: number, what: string): void {
  if (at < 0 || at + len > buf.length) throw new ZipError(`truncated ${what}`);
}

/** The entries of a zip, from its central directory (zip64 aware). Throws ZipError when malformed. */
export function listZip(buf: Buffer): ZipRecord[] {
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === SIG_EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd === -1) throw new ZipError('no end of central directory');
  let total = buf.readUInt16LE(eocd + 10);
  let cdSize = buf.readUInt32LE(eocd + 12);
  let cdOffset = buf.readUInt32LE(eocd + 16);
  if (total === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) {
    const loc = eocd - 20;
    if (loc >= 0 && buf.readUInt32LE(loc) === SIG_ZIP64_LOCATOR) {
      const z64 = u64(buf, loc + 8);
      need(buf, z64, 56, 'zip64 end of central directory');
      if (buf.readUInt32LE(z64) !== SIG_ZIP64_EOCD) throw new ZipError('bad zip64 end of central directory');
      total = u64(buf, z64 + 32);
      cdSize = u64(buf, z64 + 40);
      cdOffset = u64(buf, z64 + 48);
    }
  }
  need(buf, cdOffset, cdSize, 'central directory');
  const records: ZipRecord[] = [];
  let p = cdOffset;
  for (let n = 0; n < total; n++) {
    need(buf, p, 46, 'central directory entry');
    if (buf.readUInt32LE(p) !== SIG_CENTRAL) throw new ZipError('bad central directory entry');
    const flags = buf.readUInt16LE(p + 8);
    const method = buf.readUInt16LE(p + 10);
    let compressedSize = buf.readUInt32LE(p + 20);
    let size = buf.readUInt32LE(p + 24);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    let localOffset = buf.readUInt32LE(p + 42);
    need(buf, p + 46, nameLen + extraLen, 'central directory entry');
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    // zip64 extra field: the 0xffffffff fields, in order
    for (let e = p + 46 + nameLen; e + 4 <= p + 46 + nameLen + extraLen;) {
      const id = buf.readUInt16LE(e);
      const len = buf.readUInt16LE(e + 2);
      if (id === 0x0001) {
        let q = e + 4;
        const end = e + 4 + len;
        if (size === 0xffffffff && q + 8 <= end) {
          size = u64(buf, q);
          q += 8;
        }
        if (compressedSize === 0xffffffff && q + 8 <= end) {
          compressedSize = u64(buf, q);
          q += 8;
        }
        if (localOffset === 0xffffffff && q + 8 <= end) localOffset = u64(buf, q);
      }
      e += 4 + len;
    }
    need(buf, localOffset, 30, `local header of ${name}`);
    if (buf.readUInt32LE(localOffset) !== SIG_LOCAL) throw new ZipError(`bad local header of ${name}`);
    const dataOffset =
      localOffset + 30 + buf.readUInt16LE(localOffset + 26) + buf.readUInt16LE(localOffset + 28);
    records.push({ name, method, flags, compressedSize, size, dataOffset });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return records;
}

/**
 * The entries of a zip without central directory (a trace cut short), from its local headers. Sizes
 * unknown in the header (data descriptor) read up to the next local header.
 */
export function walkLocalHeaders(buf: Buffer): ZipRecord[] {
  const records: ZipRecord[] = [];
  const sig = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
  let p = 0;
  while (p + 30 <= buf.length && buf.readUInt32LE(p) === SIG_LOCAL) {
    const flags = buf.readUInt16LE(p + 6);
    const method = buf.readUInt16LE(p + 8);
    let compressedSize = buf.readUInt32LE(p + 18);
    const size = buf.readUInt32LE(p + 22);
    const nameLen = buf.readUInt16LE(p + 26);
    const extraLen = buf.readUInt16LE(p + 28);
    const name = buf.toString('utf8', p + 30, Math.min(buf.length, p + 30 + nameLen));
    const dataOffset = p + 30 + nameLen + extraLen;
    let next: number;
    if (flags & 0x08 || compressedSize === 0xffffffff) {
      const found = buf.indexOf(sig, dataOffset);
      next = found === -1 ? buf.length : found;
      compressedSize = next - dataOffset;
    } else {
      next = dataOffset + compressedSize;
    }
    records.push({ name, method, flags, compressedSize, size: flags & 0x08 ? -1 : size, dataOffset });
    if (next <= p) break;
    p = next;
  }
  return records;
}

/** The content of an entry (stored or deflate). Throws ZipError when it cannot be read. */
export function readZipEntry(buf: Buffer, r: ZipRecord, maxBytes: number): Buffer {
  if (r.flags & 0x01) throw new ZipError(`${r.name}: encrypted`);
  const end = Math.min(buf.length, r.dataOffset + r.compressedSize);
  if (r.dataOffset > buf.length) throw new ZipError(`${r.name}: data beyond the end of the file`);
  const data = buf.subarray(r.dataOffset, end);
  if (r.method === 0) return data;
  if (r.method !== 8) throw new ZipError(`${r.name}: unsupported compression method ${r.method}`);
  try {
    return zlib.inflateRawSync(data, { maxOutputLength: maxBytes });
  } catch (e) {
    // a cut-short entry: keep what inflates
    try {
      return zlib.inflateRawSync(data, {
        maxOutputLength: maxBytes,
        finishFlush: zlib.constants.Z_SYNC_FLUSH,
      });
    } catch {
      throw new ZipError(`${r.name}: ${(e as Error).message}`);
    }
  }
}
