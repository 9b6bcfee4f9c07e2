// Values shared by the config, the global setup and the tests (see playwright.config.ts).
import { join } from 'node:path';

export function gatewayBin(): string {
  return required('GATEWAY_BIN');
}

export function dataDir(): string {
  return required('E2E_DATA_DIR');
}

export function staticDir(): string {
  return required('E2E_STATIC_DIR');
}

/** Where the global setup saves the demo shipments printed by `gateway demo --json`. */
export function demoFile(): string {
  return join(`${dataDir()}-state`, 'demo-shipments.json');
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the tests through playwright.config.ts`);
  return value;
}

/** The address of the gateway under test (the config's baseURL). */
export function siteUrl(): string {
  return `http://127.0.0.1:${required('E2E_PORT')}`;
}
