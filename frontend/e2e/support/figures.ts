// The dashboard figures as the page last read them: other tests add and move shipments all the
// time, so a figure is checked against the answer of a read the page sent after the change, not
// against a count taken from the server at some other moment.
import { fromBinary } from '@bufbuild/protobuf';
import { expect, type Page, type Request, type Response } from '@playwright/test';
import { ShipmentStatisticsSchema, type ShipmentStatistics } from '../../src/gen/logistics/v1/shipment_service_pb';

const STATISTICS_PATH = '/logistics.v1.ShipmentService/GetShipmentStatistics';

/** A count as a figure shows it. */
export function figure(count: bigint | number): string {
  return new Intl.NumberFormat('en-US').format(count);
}

/** A gRPC-web body's first frame (a flag byte and a four-byte length) is the message; the
 * trailers follow. */
async function statisticsIn(response: Response): Promise<ShipmentStatistics> {
  const body = await response.body();
  return fromBinary(ShipmentStatisticsSchema, body.subarray(5, 5 + body.readUInt32BE(1)));
}

/**
 * Runs `change`, then waits until the page has read the figures again and `shown` (what the page
 * shows) equals `expected` of the newest read, sent since the change began (the read a change
 * brings may leave before the change's own answer reaches the test).
 */
export async function expectFiguresReadAfter(
  page: Page,
  change: () => Promise<unknown>,
  shown: () => Promise<string>,
  expected: (statistics: ShipmentStatistics) => string,
): Promise<void> {
  // A read the page gave up (a newer one replaced it) has no answer: undefined.
  const reads: Promise<ShipmentStatistics | undefined>[] = [];
  const listen = (request: Request) => {
    if (new URL(request.url()).pathname !== STATISTICS_PATH) return;
    reads.push(
      request
        .response()
        .then((response) => (response ? statisticsIn(response) : undefined))
        .catch(() => undefined),
    );
  };
  /** What the newest read that was answered returned. */
  const newest = async () => (await Promise.all(reads)).filter((answer) => answer !== undefined).at(-1);
  page.on('request', listen);
  try {
    await change();
    await expect.poll(async () => (await newest()) !== undefined, { message: 'the figures are read again', timeout: 3_000 }).toBe(true);
    await expect
      .poll(async () => {
        const answer = await newest();
        return answer !== undefined && (await shown()) === expected(answer);
      }, { timeout: 3_000 })
      .toBe(true);
  } finally {
    page.off('request', listen);
  }
}
