import { describe, expect, it } from 'vitest';
import { create } from '@bufbuild/protobuf';
import { i18n, type Messages } from '@lingui/core';
import { DateSchema } from '@/gen/logistics/v1/shipment_pb';
import english from '@/locales/en/track.json';
import { compileCatalogue } from '../../../../scripts/catalogues.mjs';
import { etaLabel, etaStatus } from './eta';

i18n.loadAndActivate({ locale: 'en', messages: compileCatalogue(english) as Messages });

const day = (year: number, month: number, dayOfMonth: number) => create(DateSchema, { year, month, day: dayOfMonth });

describe('etaStatus', () => {
  it('is on time while the date is ahead', () => {
    const eta = etaStatus(day(2026, 11, 25), '2026-11-23', false);
    expect(eta).toEqual({ kind: 'on-time' });
    expect(etaLabel(eta)).toBe('on time');
  });

  it('says today on the day itself', () => {
    const eta = etaStatus(day(2026, 11, 23), '2026-11-23', false);
    expect(eta).toEqual({ kind: 'today' });
    expect(etaLabel(eta)).toBe('today');
  });

  it('is late by 1 day the day after', () => {
    const eta = etaStatus(day(2026, 11, 22), '2026-11-23', false);
    expect(eta).toEqual({ kind: 'late', days: 1 });
    expect(etaLabel(eta)).toBe('late by 1 day');
  });

  it('counts calendar days across months, years and a DST change', () => {
    expect(etaLabel(etaStatus(day(2026, 10, 20), '2026-11-23', false))).toBe('late by 34 days');
    expect(etaLabel(etaStatus(day(2025, 12, 31), '2026-01-02', false))).toBe('late by 2 days');
    expect(etaLabel(etaStatus(day(2026, 3, 28), '2026-3-30', false))).toBe('');
    expect(etaLabel(etaStatus(day(2026, 3, 28), '2026-03-30', false))).toBe('late by 2 days');
  });

  it('a delivered shipment is never late', () => {
    const eta = etaStatus(day(2026, 1, 1), '2026-11-23', true);
    expect(eta).toEqual({ kind: 'delivered' });
    expect(etaLabel(eta)).toBe('delivered');
  });

  it('without a date there is nothing to say', () => {
    expect(etaStatus(undefined, '2026-11-23', false)).toEqual({ kind: 'unknown' });
    expect(etaStatus(day(0, 0, 0), '2026-11-23', false)).toEqual({ kind: 'unknown' });
    expect(etaLabel({ kind: 'unknown' })).toBe('');
  });
});
