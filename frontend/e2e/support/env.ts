// Values shared by the config, the global setup and the tests (see playwright.config.ts).
import { join } from 'node:path';
import { test, type Page } from '@playwright/test';

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

/** Tag of a test that checks how a screen looks (a width, a theme), not a flow: the distributed
 * run (playwright.config.ts) leaves it to the all-in-one run, whose pages are the same. */
export const LAYOUT = '@layout';

/** Tag of a test in a cross-service spec that makes no call across services the spec's flows
 * do not already make (a refusal, a parse error, a role without a tab): the distributed run
 * leaves it to the all-in-one run. */
export const ONE_MODE = '@all-in-one';

/** The tag of one viewport of a flow tested at several widths: the distributed run takes the
 * flow once, at the desktop width. */
export function layoutUnlessDesktop(viewport: { width: number }): { tag?: string } {
  return viewport.width >= 1000 ? {} : { tag: LAYOUT };
}

/** Skips this run of a flow at every width but `width`: its steps do not depend on the width,
 * each screen's layout has tests of its own at both, and the flow's time is spent once. A spec
 * alternates the widths its flows take; one the distributed run takes runs at 1280. */
export function flowAt(at: Page | { width: number }, width: 390 | 1280): void {
  const current = 'viewportSize' in at ? at.viewportSize()?.width : at.width;
  test.skip(current !== width, `a flow, run at ${width} px`);
}
