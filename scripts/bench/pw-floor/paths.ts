import path from 'node:path';

/** The Playwright floor's folders (scripts/bench/pw-floor/): under the benchmark's own output. */
export const PW_FLOOR_OUT = path.resolve(__dirname, '..', '..', '..', 'test-results', 'bench', 'pw-floor');
export const PW_FLOOR_PARTS = path.join(PW_FLOOR_OUT, 'parts');
/** Sessions (storage states) shared by the workers; removed when the next run starts. */
export const PW_FLOOR_AUTH = path.join(PW_FLOOR_OUT, 'auth');
/** One file per run: its collection's status, read by its item tests (also after a restart). */
export const PW_FLOOR_STATUS = path.join(PW_FLOOR_OUT, 'status');
