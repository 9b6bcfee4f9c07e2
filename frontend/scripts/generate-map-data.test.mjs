// The app places cities with its own copy of the projection that drew the bundled outline
// (journey-map/project.ts); this checks the two agree, against d3-geo itself.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { geoNaturalEarth1 } from 'd3-geo';
import { describe, expect, it } from 'vitest';
import { project } from '../src/features/tracking/components/journey-map/project';
import { FRAME, OUTLINES } from '../src/features/tracking/components/journey-map/world-outline';

describe('the journey map projection', () => {
  it('is d3-geo’s Natural Earth I in the outline’s frame, for every central meridian', () => {
    for (const { center } of OUTLINES) {
      const d3 = geoNaturalEarth1().rotate([-center, 0]).scale(FRAME.scale).translate([FRAME.width / 2, FRAME.top]);
      for (const [lat, lon] of [[51.9, 4.5], [-33.9, 151.2], [64.1, -21.9], [0, 0], [-55, -70], [61.2, -149.9]]) {
        const [x, y] = d3([lon, lat]);
        const p = project(lat, lon, center);
        expect(p.x).toBeCloseTo(x, 6);
        expect(p.y).toBeCloseTo(y, 6);
      }
    }
  });
});

describe('the journey map data', () => {
  it('stays small: outline and gazetteer under 60 KB gzip together', () => {
    const dir = new URL('../src/features/tracking/components/journey-map/', import.meta.url);
    const gzip = (file) => gzipSync(readFileSync(new URL(file, dir)), { level: 9 }).length;
    expect(gzip('world-outline.ts') + gzip('gazetteer-data.ts')).toBeLessThan(60 * 1024);
  });
});
