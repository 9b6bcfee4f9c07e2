import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, devices } from '@playwright/test';

// End-to-end tests against the real gateway binary serving the built site (npm run build first).
//   GATEWAY_BIN  the gateway binary (default ../target/debug/gateway)
//   E2E_PORT     port of the gateway under test (default: a random port in 20000-29999,
//                a range where Chromium blocks no port as unsafe)
//   E2E_WORKERS  browsers at once (default 4: a test waits on the page far more than it computes,
//                so four keep CI's 2 cores busy without starving any, 522 s for the suite against
//                about 580 s with three, while six time out; 2 against the distributed product,
//                whose SecantusDB answers one query at a time)
//   E2E_MODE     `distributed`: run scripts/run-distributed.sh instead (Redis, SecantusDB and each
//                service as its own process, binaries next to GATEWAY_BIN, data in the run's folder)
//                and only the specs listed in crossServiceSpecs
// The data directory is a fresh temporary folder for each run; the values are put in
// process.env here so that the global setup and the test workers (which inherit the runner's
// environment) use the same ones.

const here = fileURLToPath(new URL('.', import.meta.url));

process.env.GATEWAY_BIN = resolve(here, process.env.GATEWAY_BIN ?? '../target/debug/gateway');
process.env.E2E_PORT ??= String(20000 + Math.floor(Math.random() * 10000));
process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'pse-e2e-'));
process.env.E2E_STATIC_DIR ??= resolve(here, 'dist');
// The first admin, created by the gateway on its first start (empty users collection).
process.env.E2E_ADMIN_EMAIL ??= 'admin@example.com';
process.env.E2E_ADMIN_PASSWORD ??= 'e2e-Admin-Passw0rd-2026';

const distributed = process.env.E2E_MODE === 'distributed';
// Against the distributed product, only the specs whose flows cross a service boundary: the
// Rust tests already run every service in both modes, and the rest of the suite checks pages
// that one service answers the same either way (or, like restart and resilience, starts a
// gateway of its own).
const crossServiceSpecs = {
  'admin.spec.ts': 'a shipment made and changed by a signed-in admin (auth) in shipments, its e-mails in notifications',
  'courier.spec.ts': "a courier (auth) records events offline that shipments applies once, followed live on another gateway's page",
  'back-office.spec.ts': 'figures, a bulk change and the export streamed from shipments through the gateway',
  'emails.spec.ts': 'the contact form and test e-mails in notifications, retried from the outbox',
  'import.spec.ts': 'a CSV file uploaded through the gateway to shipments, its report downloaded back',
  'proof-of-delivery.spec.ts': 'signatures and photos uploaded through the gateway and served back by shipments',
  'roles.spec.ts': "a role changed in auth changes what shipments allows, and shipments' audit log names who",
  'tracking-send-link.spec.ts': 'a link e-mailed by notifications for shipments, signed by the gateway, opens the full view',
  'webhooks.spec.ts': "endpoints managed in notifications receive shipments' changes",
};
const port = Number(process.env.E2E_PORT);
const baseURL = `http://127.0.0.1:${port}`;

if (!existsSync(join(process.env.E2E_STATIC_DIR, 'index.html'))) {
  throw new Error(`No built site in ${process.env.E2E_STATIC_DIR}: run \`npm run build\` before \`npm run e2e\`.`);
}
if (!existsSync(process.env.GATEWAY_BIN)) {
  throw new Error(`No gateway binary at ${process.env.GATEWAY_BIN}: build it (cargo build) or set GATEWAY_BIN.`);
}

// Chromium's headless shell where installed (make test installs it): the same engine without
// the desktop browser around it, a quarter faster on CI's two cores; else the full browser.
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

export const chromiumLaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium'),
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
    '--disable-quic',
    '--disable-sync',
  ],
};

export default defineConfig({
  testDir: './e2e',
  testMatch: distributed ? Object.keys(crossServiceSpecs) : undefined,
  // Of those, only the flows: a test tagged @layout (e2e/support/env.ts) checks a page that is
  // the same in both modes, and one tagged @all-in-one crosses no boundary the flows do not.
  grepInvert: distributed ? /@layout|@all-in-one/ : undefined,
  outputDir: './test-results/artifacts',
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  workers: Number(process.env.E2E_WORKERS ?? (distributed ? 2 : 4)),
  // A bound against a hung test, not a measure: the longest flows take about 30 s with four
  // browsers on CI's two cores, and a slow moment there must not fail them.
  timeout: 60_000,
  expect: { timeout: 7_000 },
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  globalSetup: './e2e/global-setup.ts',
  globalTeardown: './e2e/global-teardown.ts',
  use: {
    baseURL,
    // A trace films every test, which costs a third of the suite's time; CI keeps no files, so
    // it records none there (run the failing spec again without CI=1 for one).
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    colorScheme: 'light',
    // Motion costs CI's two cores a seventh of the browser's time (endless marquees, pulses);
    // the tests of motion itself ask for it (page.emulateMedia).
    reducedMotion: 'reduce',
    // The offline service worker would answer requests before page.route() sees them; the
    // offline tests allow it in their own context.
    serviceWorkers: 'block',
    launchOptions: chromiumLaunchOptions,
  },
  projects: [
    {
      name: 'chromium',
      use: { ...devices['Desktop Chrome'], launchOptions: chromiumLaunchOptions, serviceWorkers: 'block' },
    },
  ],
  webServer: {
    command: distributed ? `"${resolve(here, '../scripts/run-distributed.sh')}"` : `"${process.env.GATEWAY_BIN}"`,
    cwd: here,
    url: `${baseURL}/`,
    reuseExistingServer: false,
    timeout: distributed ? 180_000 : 60_000,
    gracefulShutdown: distributed ? { signal: 'SIGTERM', timeout: 20_000 } : undefined,
    stdout: 'pipe',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      DATA_DIR: process.env.E2E_DATA_DIR,
      STATIC_DIR: process.env.E2E_STATIC_DIR,
      // The suite looks up more numbers per minute than a visitor would.
      TRACKING_RATE_LIMIT_PER_MINUTE: '10000',
      // Every party check and subscription comes from 127.0.0.1; the limits per shipment and
      // per address stay at their defaults.
      TRACKING_VERIFY_RATE_LIMIT_PER_HOUR: '10000',
      SUBSCRIBE_RATE_LIMIT_PER_HOUR: '10000',
      CONTACT_RATE_LIMIT_PER_HOUR: '1000',
      // Every quote comes from 127.0.0.1 too.
      QUOTE_RATE_LIMIT_PER_MINUTE: '1000',
      // And every open tracking page and staff screen, which each hold a live watch.
      LIVE_PAGES_PER_CLIENT: '1000',
      ADMIN_EMAIL: process.env.E2E_ADMIN_EMAIL,
      ADMIN_PASSWORD: process.env.E2E_ADMIN_PASSWORD,
      // Every admin test signs in from 127.0.0.1; the per-account lockout stays at its default.
      LOGIN_RATE_LIMIT_PER_MINUTE: '1000',
      RUST_LOG: process.env.RUST_LOG ?? 'info',
      ...(distributed ? { DATA_ROOT: process.env.E2E_DATA_DIR, BIN_DIR: dirname(process.env.GATEWAY_BIN) } : {}),
    },
  },
});
