// Geometry of the journey map: where a place falls in the outline's frame, which part of the world
// to show, and the route's curve. Pure functions, tested against d3-geo (journey-map.test.ts).
import { FRAME } from './world-outline';

export type Point = { x: number; y: number };
export type View = { x: number; y: number; width: number; height: number };

/** Width ÷ height of every view, so the map keeps its size whatever the route. */
export const ASPECT = 2;
/** The narrowest view, as a share of the world's width: a route inside one country still shows its region. */
const MIN_WIDTH = 0.2 * FRAME.width;
/** Room around the route, as a share of its extent. */
const PADDING = 0.18;

/** Degrees in (-180, 180]. */
const wrap = (degrees: number) => degrees - 360 * Math.ceil((degrees - 180) / 360);

/**
 * d3-geo's Natural Earth I (geoNaturalEarth1Raw) in the outline's frame, with `center` (degrees
 * east) in the middle; the script drew each outline with the same.
 */
export function project(lat: number, lon: number, center = 0): Point {
  const lambda = (wrap(lon - center) * Math.PI) / 180;
  const phi = (lat * Math.PI) / 180;
  const phi2 = phi * phi;
  const phi4 = phi2 * phi2;
  const x = lambda * (0.8707 - 0.131979 * phi2 + phi4 * (-0.013791 + phi4 * (0.003971 * phi2 - 0.001529 * phi4)));
  const y = phi * (1.007226 + phi2 * (0.015085 + phi4 * (-0.044475 + 0.028874 * phi2 - 0.005916 * phi4)));
  return { x: FRAME.width / 2 + x * FRAME.scale, y: FRAME.top - y * FRAME.scale };
}

/**
 * The first of `centers` whose map no leg of the route crosses the edge of (each leg going the
 * short way round), so Tokyo → Anchorage crosses the Pacific, not Asia; else the first.
 */
export function centerFor(longitudes: readonly number[], centers: readonly number[]): number {
  const fits = (center: number) =>
    longitudes.every((lon, i) => i === 0 || Math.abs(wrap(lon - center) - wrap(longitudes[i - 1] - center)) <= 180);
  return centers.find(fits) ?? centers[0];
}

/** Moves [start, start + size) into [0, limit) when it fits, else centres it on [0, limit). */
function clamp(start: number, size: number, limit: number): number {
  if (size >= limit) return (limit - size) / 2;
  return Math.min(Math.max(start, 0), limit - size);
}

/** The part of the world to show: the points with room around them, at `aspect` (width ÷ height,
 * ASPECT unless the map has a box of another shape to fill); the whole world without points. */
export function viewOf(points: readonly Point[], aspect = ASPECT): View {
  if (points.length === 0) {
    const height = FRAME.width / aspect;
    return { x: 0, y: (FRAME.height - height) / 2, width: FRAME.width, height };
  }
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  let width = Math.max((maxX - minX) * (1 + 2 * PADDING), MIN_WIDTH);
  let height = Math.max((maxY - minY) * (1 + 2 * PADDING), width / aspect);
  width = Math.min(Math.max(width, height * aspect), FRAME.width);
  height = width / aspect;
  const x = clamp((minX + maxX - width) / 2, width, FRAME.width);
  const y = clamp((minY + maxY - height) / 2, height, FRAME.height);
  return { x, y, width, height };
}

const round = (n: number) => Math.round(n * 10) / 10;

/**
 * The route through the points as an SVG path: each leg a gentle arc bowed towards the pole,
 * like a flight path on a map. Repeated points are left out of the legs.
 */
export function routePath(points: readonly Point[]): string {
  if (points.length === 0) return '';
  let d = `M${round(points[0].x)} ${round(points[0].y)}`;
  for (let i = 1; i < points.length; i++) {
    const [a, b] = [points[i - 1], points[i]];
    const [dx, dy] = [b.x - a.x, b.y - a.y];
    if (dx === 0 && dy === 0) continue;
    // The normal of the leg that points up the map (north), 15% of its length away from its middle.
    const side = dx >= 0 ? 1 : -1;
    const cx = (a.x + b.x) / 2 + side * dy * 0.15;
    const cy = (a.y + b.y) / 2 - side * dx * 0.15;
    d += `Q${round(cx)} ${round(cy)} ${round(b.x)} ${round(b.y)}`;
  }
  return d;
}
