import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { dataDir, demoFile } from './support/env';

/** Removes the run's temporary data folder and the saved demo shipments. */
export default function globalTeardown(): void {
  rmSync(dirname(demoFile()), { recursive: true, force: true });
  rmSync(dataDir(), { recursive: true, force: true });
}
