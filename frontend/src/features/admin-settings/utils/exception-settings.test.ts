import { describe, expect, it } from 'vitest';
import { create } from '@bufbuild/protobuf';
import { ExceptionSettingsSchema } from '@/gen/logistics/v1/shipment_exception_service_pb';
import { exceptionFieldOf, exceptionSettingsErrors, hourLabel, toExceptionSettings, toExceptionValues } from './exception-settings';

const saved = create(ExceptionSettingsSchema, {
  landStalledHours: 48,
  airStalledHours: 24,
  seaStalledHours: 240,
  operationsEmail: 'ops@example.com',
  digestLanguageCode: 'ar',
  digestHour: 7,
});

describe('exception settings', () => {
  it('edits the saved values and sends them back as they were', () => {
    const values = toExceptionValues(saved);
    expect(values).toEqual({ land: '48', air: '24', sea: '240', operationsEmail: 'ops@example.com', languageCode: 'ar', digestHour: '7' });
    expect(toExceptionSettings(values)).toEqual({
      landStalledHours: 48,
      airStalledHours: 24,
      seaStalledHours: 240,
      operationsEmail: 'ops@example.com',
      digestLanguageCode: 'ar',
      digestHour: 7,
    });
  });

  it('reads an unset language as English and trims the address', () => {
    const values = toExceptionValues(create(ExceptionSettingsSchema, { landStalledHours: 1 }));
    expect(values.languageCode).toBe('en');
    expect(toExceptionSettings({ ...values, operationsEmail: '  ops@example.com ' }).operationsEmail).toBe('ops@example.com');
  });

  it('names the hours outside their bounds before asking the server', () => {
    const values = toExceptionValues(saved);
    expect(exceptionSettingsErrors(values)).toEqual({});
    expect(exceptionSettingsErrors({ ...values, land: '0', air: '721', sea: '2.5', digestHour: '24' })).toEqual({
      land: 'Enter a whole number of hours from 1 to 720',
      air: 'Enter a whole number of hours from 1 to 720',
      sea: 'Enter a whole number of hours from 1 to 720',
      digestHour: 'Choose an hour from 0 to 23',
    });
    expect(exceptionSettingsErrors({ ...values, land: '', air: '1', sea: '720' })).toEqual({
      land: 'Enter a whole number of hours from 1 to 720',
    });
  });

  it("puts the server's field violations under their fields", () => {
    expect(exceptionFieldOf('settings.land_stalled_hours')).toBe('land');
    expect(exceptionFieldOf('air_stalled_hours')).toBe('air');
    expect(exceptionFieldOf('settings.sea_stalled_hours')).toBe('sea');
    expect(exceptionFieldOf('settings.operations_email')).toBe('operationsEmail');
    expect(exceptionFieldOf('settings.digest_language_code')).toBe('languageCode');
    expect(exceptionFieldOf('settings.digest_hour')).toBe('digestHour');
    expect(exceptionFieldOf('settings')).toBeUndefined();
  });

  it('shows an hour on the 24-hour clock', () => {
    expect(hourLabel(0)).toBe('00:00');
    expect(hourLabel(17)).toBe('17:00');
  });
});
