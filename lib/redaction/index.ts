import path from 'node:path';
import { Findings, type Finding } from './findings';
import { scanFile, type ScanState } from './search';
import { collectSecrets, prepareSecret, SecretSearch } from './secrets';
import { readCookieHashes } from './seen-cookies';
import { defaultEnv, filesToScan, type TargetOptions } from './targets';

/**
 * The redaction guard: no phone number, password, session cookie value or token in any output the
 * suite writes. Pure Node: it reads the output folders (./targets), the zips in them and the base64
 * data they embed (./search, ./archive), looks for the known secrets (./secrets) and for secret
 * patterns (./detectors), and reports where a secret is, never the secret itself (./findings).
 * URL masking for every text that leaves the suite is ./url; cookie hashes are ./seen-cookies.
 * What it guarantees: README "Security and limits".
 */

export { formatFinding, maskPhone, type Detector, type Finding } from './findings';
export { isZip, listZipEntries, readZip, type ZipContents, type ZipEntry } from './archive';
export { recordCookieHashes, readCookieHashes, seenCookiesFile } from './seen-cookies';
export { OUTPUT_DIRS } from './targets';
export { redactText, redactUrl, SECRET_PARAM_NAMES } from './url';
export { SecretMask, runUrls } from './mask';

export const DEFAULT_MAX_FILE_BYTES = 200 * 1024 * 1024;

export interface ScanOptions extends TargetOptions {
  /** The project root: default output folders, credentials, `.auth/`, `.l1/` are found under it. */
  root: string;
  /** Defaults to `process.env` over the root's `.env`, merged as the settings merge them (`mergeEnv`). */
  env?: NodeJS.ProcessEnv;
  /**
   * The most bytes read at once (default 200 MiB): larger files are scanned in windows, larger zips
   * and zip entries are `unscanned`.
   */
  maxFileBytes?: number;
  /** What each window of a large file also reads of its neighbours (default 64 KiB; tests set less). */
  overlapBytes?: number;
}

export interface ScanReport {
  findings: Finding[];
  /** Malformed zips, unreadable registries, files named but excluded: never a secret. */
  warnings: string[];
  /**
   * `file: why` for what the guard could not read (a zip or zip entry over the size limit, a run
   * of base64 longer than a window, data nested too deep, a file or folder it may not read): a
   * failure, as a finding is, since it may hold one.
   */
  unscanned: string[];
  filesScanned: number;
  /** Number of distinct secret values searched for (registry entries and `.auth` cookies). */
  secretsChecked: number;
  /** Number of recorded cookie hashes checked against the tokens of every output. */
  cookieHashes: number;
}

export function scanOutputsReport(options: ScanOptions): ScanReport {
  const root = path.resolve(options.root);
  const env = options.env ?? defaultEnv(root);
  const warnings: string[] = [];
  const secrets = collectSecrets(root, env, warnings);
  const hashes = readCookieHashes(root);
  const state: ScanState = {
    root,
    secrets: new SecretSearch(secrets.map(prepareSecret)),
    hashes,
    hashMemo: new Map(),
    findings: new Findings(),
    warnings,
    maxBytes: options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
    overlapBytes: options.overlapBytes ?? 64 * 1024,
    unscanned: [],
  };
  let filesScanned = 0;
  for (const file of filesToScan(root, env, options, warnings, state.unscanned)) {
    if (scanFile(file, state)) filesScanned++;
  }
  return {
    findings: state.findings.sorted(),
    warnings,
    unscanned: state.unscanned,
    filesScanned,
    secretsChecked: secrets.length,
    cookieHashes: hashes.size,
  };
}
