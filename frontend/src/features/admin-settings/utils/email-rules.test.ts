import { describe, expect, it } from 'vitest';
import { create } from '@bufbuild/protobuf';
import { TrackingEmailSettingsSchema, TrackingEvent } from '@/gen/logistics/v1/shipment_pb';
import { appliesTo, checkboxLabel, EVENT_ROWS, toFormValues, toSettings } from './email-rules';

describe('tracking e-mail rules', () => {
  it('lists every event in the order of a shipment’s life', () => {
    expect(EVENT_ROWS.map((r) => r.event)).toEqual([
      TrackingEvent.CREATED,
      TrackingEvent.IN_TRANSIT,
      TrackingEvent.DELAYED,
      TrackingEvent.ON_HOLD,
      TrackingEvent.DELIVERED,
    ]);
  });

  it('names each checkbox', () => {
    const inTransit = EVENT_ROWS[1];
    expect(checkboxLabel(inTransit, 'receiver')).toBe('E-mail the receiver when in transit');
    expect(checkboxLabel(EVENT_ROWS[0], 'shipper')).toBe('E-mail the shipper when created');
    expect(checkboxLabel(EVENT_ROWS[3], 'subscribers')).toBe('E-mail subscribers when on hold');
  });

  it('never e-mails subscribers on creation', () => {
    expect(appliesTo('created', 'subscribers')).toBe(false);
    expect(appliesTo('created', 'shipper')).toBe(true);
    expect(appliesTo('delivered', 'subscribers')).toBe(true);
  });

  it('reads the server’s rules, an event left out being all off', () => {
    const settings = create(TrackingEmailSettingsSchema, {
      rules: [
        { event: TrackingEvent.CREATED, shipper: true, receiver: true, subscribers: true },
        { event: TrackingEvent.DELIVERED, shipper: false, receiver: true, subscribers: true },
      ],
    });
    const values = toFormValues(settings);
    expect(values.created).toEqual({ shipper: true, receiver: true, subscribers: false });
    expect(values.delivered).toEqual({ shipper: false, receiver: true, subscribers: true });
    expect(values.delayed).toEqual({ shipper: false, receiver: false, subscribers: false });
  });

  it('writes one rule per event, round trip', () => {
    const values = toFormValues(create(TrackingEmailSettingsSchema, {}));
    values.inTransit.receiver = true;
    values.created.subscribers = true;
    const settings = toSettings(values);
    expect(settings.rules).toHaveLength(5);
    expect(settings.rules[0]).toEqual({ event: TrackingEvent.CREATED, shipper: false, receiver: false, subscribers: false });
    expect(settings.rules[1]).toEqual({ event: TrackingEvent.IN_TRANSIT, shipper: false, receiver: true, subscribers: false });
    expect(toFormValues(create(TrackingEmailSettingsSchema, settings))).toEqual({ ...values, created: { ...values.created, subscribers: false } });
  });
});
