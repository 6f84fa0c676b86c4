import crypto from 'node:crypto';

/**
 * The SHA-256 of a text (as UTF-8) or of bytes, in lowercase hex: the one hash helper of the suite
 * (seen cookie values, short label hashes in file names, file snapshots in tests).
 */
export function sha256(data: string | Uint8Array): string {
  return crypto.createHash('sha256').update(data).digest('hex');
}
