import { describe, expect, it } from 'vitest';
import { labelsPath } from '@/config/routes';
import { MAX_PRINT_IDS, parseFormat, parseIds, trackingUrl } from './label-params';

describe('parseIds', () => {
  it('splits at commas, trims, drops empties and repeats, keeps the order', () => {
    expect(parseIds(' b2 ,a1,,b2, a1 ,c3')).toEqual({ ok: true, ids: ['b2', 'a1', 'c3'] });
  });

  it('takes one id', () => {
    expect(parseIds('65f0c0ffee')).toEqual({ ok: true, ids: ['65f0c0ffee'] });
  });

  it.each([null, '', ' ', ',, ,'])('says no shipments are selected for %j', (raw) => {
    expect(parseIds(raw)).toEqual({ ok: false, count: 0 });
  });

  it(`accepts ${MAX_PRINT_IDS} ids and refuses one more, counting distinct ids`, () => {
    const ids = Array.from({ length: MAX_PRINT_IDS + 1 }, (_, i) => `id${i}`);
    expect(parseIds(ids.slice(0, MAX_PRINT_IDS).join(','))).toEqual({ ok: true, ids: ids.slice(0, MAX_PRINT_IDS) });
    expect(parseIds([...ids.slice(0, MAX_PRINT_IDS), 'id0'].join(',')).ok).toBe(true);
    expect(parseIds(ids.join(','))).toEqual({ ok: false, count: 101 });
  });
});

describe('parseFormat', () => {
  it.each([
    ['waybill', 'waybill'],
    [' WayBill ', 'waybill'],
    ['label', 'label'],
    [null, 'label'],
    ['', 'label'],
    ['a5', 'label'],
  ] as const)('%j → %s', (raw, format) => {
    expect(parseFormat(raw)).toBe(format);
  });
});

describe('labelsPath', () => {
  it('lists the ids with commas and names the format', () => {
    expect(labelsPath(['a1', 'b2'], 'waybill')).toBe('/administration_and_development/labels?ids=a1,b2&format=waybill');
    expect(labelsPath(['a1'])).toBe('/administration_and_development/labels?ids=a1&format=label');
  });

  it('round-trips through URLSearchParams and parseIds when ids hold reserved characters', () => {
    const ids = ['a b', 'c&d', 'e=f'];
    const query = new URLSearchParams(labelsPath(ids).split('?')[1]);
    expect(query.get('format')).toBe('label');
    expect(parseIds(query.get('ids'))).toEqual({ ok: true, ids });
  });
});

describe('trackingUrl', () => {
  it('is the public tracking page of the number on this origin', () => {
    expect(trackingUrl('https://ship.example', 'PSE012345678')).toBe('https://ship.example/track/PSE012345678');
    expect(trackingUrl('http://127.0.0.1:8080', 'A/B C')).toBe('http://127.0.0.1:8080/track/A%2FB%20C');
  });
});
