import { describe, expect, it } from 'vitest';
import { exportScale, extendStroke, strokeBounds, traceStroke, type Point } from './signature';

describe('strokeBounds', () => {
  it('is the box around every point, with a margin', () => {
    expect(
      strokeBounds(
        [
          [
            { x: 10, y: 20 },
            { x: 30, y: 5 },
          ],
          [{ x: 50, y: 40 }],
        ],
        2,
      ),
    ).toEqual({ left: 8, top: 3, width: 44, height: 39 });
  });

  it('is null with nothing drawn', () => {
    expect(strokeBounds([])).toBeNull();
    expect(strokeBounds([[]])).toBeNull();
  });
});

describe('exportScale', () => {
  it('doubles a small signature and keeps a wide one at most 1200 px', () => {
    expect(exportScale(300)).toBe(2);
    expect(exportScale(1200)).toBe(1);
    expect(exportScale(2400)).toBe(0.5);
    expect(exportScale(0)).toBe(2);
  });
});

describe('extendStroke', () => {
  it('skips points on top of the last one', () => {
    const stroke: Point[] = [];
    expect(extendStroke(stroke, { x: 0, y: 0 })).toBe(true);
    expect(extendStroke(stroke, { x: 0.2, y: 0.2 })).toBe(false);
    expect(extendStroke(stroke, { x: 3, y: 4 })).toBe(true);
    expect(stroke).toEqual([
      { x: 0, y: 0 },
      { x: 3, y: 4 },
    ]);
  });
});

describe('traceStroke', () => {
  function recorder() {
    const calls: string[] = [];
    const ctx = {
      beginPath: () => calls.push('begin'),
      moveTo: (x: number, y: number) => calls.push(`move ${x},${y}`),
      lineTo: (x: number, y: number) => calls.push(`line ${x},${y}`),
      quadraticCurveTo: (cx: number, cy: number, x: number, y: number) => calls.push(`curve ${cx},${cy} ${x},${y}`),
      arc: (x: number, y: number) => calls.push(`arc ${x},${y}`),
      stroke: () => calls.push('stroke'),
      fill: () => calls.push('fill'),
    };
    return { calls, ctx };
  }

  it('draws a dot for a tap', () => {
    const { calls, ctx } = recorder();
    traceStroke(ctx, [{ x: 4, y: 5 }]);
    expect(calls).toEqual(['begin', 'arc 4,5', 'fill']);
  });

  it('curves through the midpoints and ends at the last point', () => {
    const { calls, ctx } = recorder();
    traceStroke(ctx, [
      { x: 0, y: 0 },
      { x: 10, y: 0 },
      { x: 10, y: 10 },
    ]);
    expect(calls).toEqual(['begin', 'move 0,0', 'curve 10,0 10,5', 'line 10,10', 'stroke']);
  });

  it('draws nothing for no points', () => {
    const { calls, ctx } = recorder();
    traceStroke(ctx, []);
    expect(calls).toEqual([]);
  });
});
