import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { gatewayBin, staticDir } from './env';

export type RunningGateway = { url: string; stop: () => Promise<void>; output: () => string };

/** A port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

/** Starts one more gateway (own port unless `extraEnv.PORT` names one, and own data folder
 * unless `dataDir` names one it then leaves in place for a restart) serving the built site,
 * and waits for it. */
export async function startGateway(extraEnv: Record<string, string>, dataDir?: string): Promise<RunningGateway> {
  const port = extraEnv.PORT ? Number(extraEnv.PORT) : await freePort();
  const data = dataDir ?? mkdtempSync(join(tmpdir(), 'pse-e2e-extra-'));
  let log = '';
  const child: ChildProcess = spawn(gatewayBin(), [], {
    env: { ...process.env, PORT: String(port), DATA_DIR: data, STATIC_DIR: staticDir(), ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    }
    if (!dataDir) rmSync(data, { recursive: true, force: true });
  };

  try {
    await expect
      .poll(
        async () => {
          if (child.exitCode !== null) throw new Error(`gateway exited (${child.exitCode}):\n${log}`);
          try {
            return (await fetch(`${url}/`)).status;
          } catch {
            return 0;
          }
        },
        { timeout: 30_000, message: `gateway on ${url} did not start` },
      )
      .toBe(200);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, stop, output: () => log };
}
