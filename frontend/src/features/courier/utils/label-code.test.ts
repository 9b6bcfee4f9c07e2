import { describe, expect, it } from 'vitest';
import { trackingNumberOf } from './label-code';

describe('trackingNumberOf', () => {
  it('reads the Code 128 (the number) and the QR code (the tracking link)', () => {
    expect(trackingNumberOf('PSE313681562')).toBe('PSE313681562');
    expect(trackingNumberOf('https://ship.example.com/track/PSE313681562')).toBe('PSE313681562');
    expect(trackingNumberOf('https://ship.example.com/ar/track/PSE313681562?x=1')).toBe('PSE313681562');
  });

  it('forgives what a typing courier adds, and refuses what is no tracking number', () => {
    expect(trackingNumberOf(' pse 3136-81562 ')).toBe('PSE313681562');
    expect(trackingNumberOf('PSE31368156')).toBeNull();
    expect(trackingNumberOf('https://example.com/about')).toBeNull();
    expect(trackingNumberOf('')).toBeNull();
  });
});
