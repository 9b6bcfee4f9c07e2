import { describe, expect, it } from 'vitest';
import { DeliveryAttemptFailure } from '@/gen/logistics/v1/shipment_pb';
import { failedAttemptText, remarksText } from './history-remarks';

// The message id itself stands for its translation.
const t = (id: string) => `<${id}>`;

describe('history remarks', () => {
  it("translate the product's own and keep what staff typed", () => {
    expect(remarksText('Shipment created', t)).toBe('<track.history.remark.created>');
    expect(remarksText('Left with the neighbour', t)).toBe('Left with the neighbour');
  });
});

describe('a failed delivery attempt', () => {
  it('names its reason', () => {
    expect(failedAttemptText(DeliveryAttemptFailure.NOBODY_HOME, t)).toBe('<track.history.failed.nobody_home>');
    expect(failedAttemptText(DeliveryAttemptFailure.REFUSED, t)).toBe('<track.history.failed.refused>');
    expect(failedAttemptText(DeliveryAttemptFailure.ADDRESS_PROBLEM, t)).toBe('<track.history.failed.address>');
  });

  it('says nothing for an entry without one, or a reason this page does not know', () => {
    expect(failedAttemptText(DeliveryAttemptFailure.UNSPECIFIED, t)).toBe('');
    expect(failedAttemptText(9 as DeliveryAttemptFailure, t)).toBe('');
  });
});
