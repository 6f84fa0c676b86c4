import path from 'node:path';

/** The Playwright floor's folders (scripts/bench/pw-floor/): under the benchmark's own output. */
export const PW_FLOOR_OUT = path.resolve(__dirname, '..', '..', '..', 'test-results', 'bench', 'pw-floor');
export const PW_FLOOR_PARTS = path.join(PW_FLOOR_OUT, 'parts');
/**
 * Sessions (storage states, with their cookies) shared by the workers: a private temporary folder
 * outside the project (no output the redaction guard scans holds a session), made by the runner,
 * named to its workers in this variable, removed when the runner exits.
 */
export const PW_FLOOR_AUTH_ENV = 'BENCH_PW_FLOOR_AUTH';
/** One file per run: its collection's status, read by its item tests (also after a restart). */
export const PW_FLOOR_STATUS = path.join(PW_FLOOR_OUT, 'status');
