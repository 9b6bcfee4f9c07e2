import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { create } from '@bufbuild/protobuf';
import { ListCourierStopsResponseSchema } from '@/gen/logistics/v1/shipment_service_pb';
import { UserSchema } from '@/gen/logistics/v1/user_pb';
import { forgetCourier, keepCourier, keepRound, keptCourier, keptRound } from './kept-round';

const COURIER = create(UserSchema, { id: 'u1', email: 'kofi@example.com' });
const ROUND = create(ListCourierStopsResponseSchema, { shipments: [{ id: 's1', trackingNumber: 'PSE123456789' }] });

describe('the round kept on the phone', () => {
  let stored: Map<string, string>;
  beforeEach(() => {
    stored = new Map();
    vi.stubGlobal('localStorage', {
      getItem: (key: string) => stored.get(key) ?? null,
      setItem: (key: string, value: string) => void stored.set(key, value),
      removeItem: (key: string) => void stored.delete(key),
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  it("is read back for the courier signed in on this phone, and not for anyone else", () => {
    keepCourier(COURIER);
    keepRound(COURIER.email, ROUND);
    expect(keptCourier()?.email).toBe(COURIER.email);
    expect(keptRound(COURIER.email)?.shipments.map((s) => s.trackingNumber)).toEqual(['PSE123456789']);
    expect(keptRound('ama@example.com')).toBeUndefined();
  });

  it('is gone after sign-out, even when a read of the round lands afterwards', () => {
    keepCourier(COURIER);
    keepRound(COURIER.email, ROUND);
    forgetCourier();
    keepRound(COURIER.email, ROUND);
    expect([...stored.keys()]).toEqual([]);
    expect(keptRound(COURIER.email)).toBeUndefined();
  });
});
