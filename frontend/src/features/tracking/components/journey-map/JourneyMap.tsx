import './journey-map.css';
import { useId, useLayoutEffect, useMemo, useRef, useState, type CSSProperties, type RefObject } from 'react';
import { useMessages } from '@/lib/i18n';
import { bundledGazetteer, type Gazetteer, type Place } from './gazetteer';
import { ASPECT, centerFor, project, routePath, viewOf, type Point, type View } from './project';
import { OUTLINES } from './world-outline';

/** The places the map can show, in order (one stop for consecutive entries at one place), and the others. */
function placesOf(gazetteer: Gazetteer, locations: readonly string[]): { stops: Place[]; unknown: string[] } {
  const stops: Place[] = [];
  const unknown: string[] = [];
  for (const raw of locations) {
    const location = raw.trim();
    if (!location) continue;
    const place = gazetteer.resolve(location);
    if (!place) {
      if (!unknown.includes(location)) unknown.push(location);
    } else if (stops[stops.length - 1] !== place) {
      stops.push(place);
    }
  }
  return { stops, unknown };
}

/** "Rotterdam, Netherlands"; just "Singapore" where the city is the country. */
function placeName(gazetteer: Gazetteer, place: Place): string {
  const country = gazetteer.countryName(place.country);
  return country === place.name ? place.name : `${place.name}, ${country}`;
}

function summaryOf(gazetteer: Gazetteer, stops: readonly Place[], goal: Place | null, t: ReturnType<typeof useMessages>): string {
  const to = goal ? ` ${t('track.map.summary_destination', { place: placeName(gazetteer, goal) })}` : '';
  if (stops.length === 0) return t('track.map.summary_none') + to;
  const names = stops.map((stop) => placeName(gazetteer, stop));
  if (names.length === 1) return t('track.map.summary_place', { place: names[0] }) + to;
  return t('track.map.summary_journey', { places: names.join(' → ') }) + to;
}

/** Width ÷ height of the element's box, kept up to date: the map fills the room its card has. */
function useAspect(): [RefObject<HTMLDivElement | null>, number] {
  const ref = useRef<HTMLDivElement>(null);
  const [aspect, setAspect] = useState(ASPECT);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => {
      const { width, height } = element.getBoundingClientRect();
      if (width > 0 && height > 0) setAspect(Math.round((width / height) * 100) / 100);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, aspect];
}

/** Where a point is in the view, in percent, for the HTML labels laid over the SVG. */
function percentIn(view: View, point: Point): { left: number; top: number } {
  return { left: ((point.x - view.x) / view.width) * 100, top: ((point.y - view.y) / view.height) * 100 };
}

/**
 * Where a label sits: above its point (below near the top edge), shifted sideways by the same
 * share of its own width as the point's share of the map's, so it never leaves the map.
 */
function labelStyle(at: { left: number; top: number }): CSSProperties {
  const below = at.top < 22;
  return {
    left: `${at.left}%`,
    top: `${at.top}%`,
    transform: `translate(${-at.left}%, ${below ? '12px' : 'calc(-100% - 12px)'})`,
  };
}

/** A dot of the given class at a point: a zero-length line with round caps, sized in CSS pixels by its stroke. */
function Dot({ point, className }: { point: Point; className: string }) {
  return <path className={className} d={`M${Math.round(point.x * 10) / 10} ${Math.round(point.y * 10) / 10}h0`} />;
}

/**
 * A map of a shipment's journey, drawn from bundled data: `locations` are the history's places
 * as written, oldest first ("Shanghai, China", "Port of Rotterdam, NL"); the last is highlighted,
 * and the `destination`, when not reached yet, is drawn as a ring at the end of a dashed leg.
 */
export default function JourneyMap({ locations, destination }: { locations: readonly string[]; destination: string }) {
  const t = useMessages('track');
  const titleId = useId();
  const [canvas, aspect] = useAspect();
  const gazetteer = bundledGazetteer();
  const { stops, unknown } = useMemo(() => placesOf(gazetteer, locations), [gazetteer, locations]);
  const resolved = destination.trim() ? gazetteer.resolve(destination.trim()) : undefined;
  const goal = resolved && resolved !== stops[stops.length - 1] ? resolved : null;
  const all = goal ? [...stops, goal] : stops;
  const outline = OUTLINES.find(
    (o) => o.center === centerFor(all.map((stop) => stop.lon), OUTLINES.map((o) => o.center)),
  )!;
  const points = stops.map((stop) => project(stop.lat, stop.lon, outline.center));
  const goalPoint = goal && project(goal.lat, goal.lon, outline.center);
  const view = viewOf(goalPoint ? [...points, goalPoint] : points, aspect);
  const [first, last] = [points[0], points[points.length - 1]];
  const [firstPlace, lastPlace] = [stops[0], stops[stops.length - 1]];
  const firstAt = first && percentIn(view, first);
  const lastAt = last && percentIn(view, last);
  // The origin's label is left out when it would sit on the latest one.
  const showFirstLabel =
    first && points.length > 1 && Math.hypot((firstAt.left - lastAt.left) / 2, firstAt.top - lastAt.top) > 12;

  return (
    <figure className="journey-map">
      <div className="journey-map-canvas" ref={canvas}>
        <svg
          className="journey-map-svg"
          viewBox={`${view.x} ${view.y} ${view.width} ${view.height}`}
          role="img"
          aria-labelledby={titleId}
        >
          <title id={titleId}>{summaryOf(gazetteer, stops, goal, t)}</title>
          <rect className="journey-map-sea" x={view.x} y={view.y} width={view.width} height={view.height} />
          <path className="journey-map-land" d={outline.land} />
          {stops.length > 1 && (
            <g className="journey-map-route">
              <path className="journey-map-route-casing" d={routePath(points)} />
              <path className="journey-map-route-line" d={routePath(points)} />
            </g>
          )}
          {goalPoint && (
            <g className="journey-map-planned">
              {last && <path className="journey-map-planned-line" d={routePath([last, goalPoint])} />}
              <Dot point={goalPoint} className="journey-map-dot-ring" />
              <Dot point={goalPoint} className="journey-map-goal" />
            </g>
          )}
          {points.slice(0, -1).map((point, index) => (
            <g key={index} className="journey-map-stop">
              <Dot point={point} className="journey-map-dot-ring" />
              <Dot point={point} className="journey-map-dot" />
            </g>
          ))}
          {last && (
            <g className="journey-map-stop journey-map-stop-latest">
              <Dot point={last} className="journey-map-dot-halo" />
              <Dot point={last} className="journey-map-dot-ring" />
              <Dot point={last} className="journey-map-dot" />
            </g>
          )}
        </svg>
        {showFirstLabel && (
          <span className="journey-map-label" style={labelStyle(firstAt)} aria-hidden="true">
            {firstPlace.name}
          </span>
        )}
        {goal && goalPoint && (
          <span className="journey-map-label is-destination" style={labelStyle(percentIn(view, goalPoint))} aria-hidden="true">
            {goal.name}
          </span>
        )}
        {last && (
          <span className="journey-map-label is-latest" style={labelStyle(lastAt)} aria-hidden="true">
            {lastPlace.name}
          </span>
        )}
      </div>
      {unknown.length > 0 && (
        <figcaption className="journey-map-note">{t('track.map.not_shown', { places: unknown.join('; ') })}</figcaption>
      )}
    </figure>
  );
}
