import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { dataDir, demoFile, gatewayBin } from './support/env';

/** Loads the demo shipments into the gateway's data directory and saves them for the tests. */
export default function globalSetup(): void {
  const stdout = execFileSync(gatewayBin(), ['demo', '--json'], {
    env: { ...process.env, DATA_DIR: dataDir() },
    encoding: 'utf8',
    timeout: 60_000,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const shipments: unknown = JSON.parse(stdout);
  if (!Array.isArray(shipments) || shipments.length === 0) {
    throw new Error(`\`gateway demo --json\` printed no shipments: ${stdout.slice(0, 500)}`);
  }
  mkdirSync(dirname(demoFile()), { recursive: true });
  writeFileSync(demoFile(), JSON.stringify(shipments, null, 2));
}
