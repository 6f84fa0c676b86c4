/** Cookie hashes now live in lib/redaction/seen-cookies; this path stays for existing importers. */
export { readCookieHashes, recordCookieHashes, seenCookiesFile } from '../redaction/seen-cookies';
export { sha256 } from '../util/hash';
