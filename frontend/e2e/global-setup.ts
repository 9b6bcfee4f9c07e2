import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { dataDir, demoFile, gatewayBin } from './support/env';

/** Loads the demo shipments into the gateway's data directory and saves them for the tests. */
export default function globalSetup(): void {
  const stdout = execFileSync(gatewayBin(), ['demo', '--json'], {
    env: { ...process.env, DATA_DIR: dataDir(), ...distributedEnv() },
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

/**
 * E2E_MODE=distributed: the shipments service is its own process, so `gateway demo` reaches it
 * over gRPC (SHIPMENTS_URL, JWT_SIGNING_KEY) as listed by scripts/run-distributed.sh.
 */
function distributedEnv(): Record<string, string> {
  if (process.env.E2E_MODE !== 'distributed') return {};
  const env: Record<string, string> = {};
  for (const line of readFileSync(join(dataDir(), 'endpoints.env'), 'utf8').split('\n')) {
    const match = /^([A-Z_]+)=(.*)$/.exec(line.trim());
    if (match) env[match[1]] = match[2];
  }
  return env;
}
