import fs from 'node:fs';
import { STATE } from '../../lib/run/config';
import { authDir } from '../../lib/platform/sessions';
import { evidenceDir } from '../../lib/platform/evidence';

/** Every invocation starts clean: no session, failed-login marker or evidence of an earlier one. */
export default function globalSetup(): void {
  for (const dir of [authDir(STATE), evidenceDir(STATE)]) {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
  }
}
