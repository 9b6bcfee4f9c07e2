import { describe, expect, it } from 'vitest';
import { CODE128_QUIET_MODULES, MIN_MODULE_MM, code128Svg, moduleWidthMm, qrSvg } from './barcodes';

describe('code128Svg', () => {
  it('draws a tracking number as 134 modules plus 10 quiet modules a side', () => {
    // Start B, P, S, E, 1, Code C, 23 45 67 89, check, stop: 11 × 11 + 13 = 134 modules.
    const { markup, modules } = code128Svg('PSE123456789');
    expect(modules).toBe(134 + 2 * CODE128_QUIET_MODULES);
    expect(markup).toMatch(/^<svg preserveAspectRatio="none" aria-hidden="true" focusable="false" viewBox="0 0 154 /);
  });

  it('leaves the 10-module quiet zones free of bars', () => {
    const { markup, modules } = code128Svg('PSE987654321');
    // Each bar is a vertical stroke "M x …" of its stroke-width, centred on x.
    const strokes = [...markup.matchAll(/<path stroke="#000000" stroke-width="([\d.]+)" d="([^"]+)"/g)];
    const edges = strokes.flatMap(([, width, d]) =>
      [...d.matchAll(/M([\d.]+) /g)].map(([, x]) => [Number(x) - Number(width) / 2, Number(x) + Number(width) / 2]),
    );
    expect(edges.length).toBeGreaterThan(20);
    expect(Math.min(...edges.map(([left]) => left))).toBe(CODE128_QUIET_MODULES);
    expect(Math.max(...edges.map(([, right]) => right))).toBe(modules - CODE128_QUIET_MODULES);
  });

  it('draws black marks only and no text or external reference', () => {
    const { markup } = code128Svg('PSE000000001');
    expect(markup).not.toMatch(/<text|href|url\(/);
    expect(new Set(markup.match(/#[0-9a-f]{6}/gi))).toEqual(new Set(['#000000']));
  });
});

describe('qrSvg', () => {
  it('draws a tracking link as a version 3 symbol with a 4-module quiet zone', () => {
    // 41 bytes at error correction M: version 3, 29 × 29 modules.
    const { markup, modules } = qrSvg('http://127.0.0.1:20000/track/PSE123456789');
    expect(modules).toBe(29 + 8);
    expect(markup).not.toMatch(/<text|href|url\(/);
  });
});

describe('moduleWidthMm', () => {
  it('fills the space up to the maximum', () => {
    expect(moduleWidthMm(154, 90, 0.5)).toBe(0.5);
    expect(moduleWidthMm(154, 60, 0.5)).toBe(0.389);
  });

  it('never goes under the minimum module', () => {
    expect(moduleWidthMm(400, 60, 0.5)).toBe(MIN_MODULE_MM);
  });
});
