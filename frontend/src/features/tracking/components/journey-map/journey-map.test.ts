import { describe, expect, it } from 'vitest';
import { bundledGazetteer, createGazetteer, normalize, parseGazetteer } from './gazetteer';
import { ASPECT, centerFor, project, routePath, viewOf } from './project';
import { FRAME } from './world-outline';
// The demo shipments of `gateway demo` (services/shipments/src/demo.rs loads this file).
import demoJson from '../../../../../../services/shipments/src/demo.json?raw';

const gazetteer = bundledGazetteer();
/** "Name/CC" of where a location resolves, or null. */
const where = (location: string) => {
  const place = gazetteer.resolve(location);
  return place && `${place.name}/${place.country}`;
};

describe('normalize', () => {
  it('ignores case, accents, punctuation and spacing', () => {
    expect(normalize('  São-Paulo ')).toBe('sao paulo');
    expect(normalize('ZÜRICH')).toBe('zurich');
    expect(normalize('Friedrichstraße')).toBe('friedrichstrasse');
    expect(normalize('Łódź')).toBe('lodz');
    expect(normalize('Xi’an')).toBe(normalize("Xi'an"));
    expect(normalize('İzmir')).toBe('izmir');
    expect(normalize('St. Louis')).toBe(normalize('Saint Louis'));
  });
});

describe('the bundled gazetteer', () => {
  it('finds a city whatever its case and accents', () => {
    expect(where('Rotterdam')).toBe('Rotterdam/NL');
    expect(where('SAO PAULO')).toBe('São Paulo/BR');
    expect(where('são paulo, brasil')).toBe('São Paulo/BR');
    expect(where('Zurich, Switzerland')).toBe('Zürich/CH');
    expect(where('Montreal')).toBe('Montréal/CA');
    expect(where('izmir, TURKIYE')).toBe('İzmir/TR');
  });

  it('knows English names, endonyms and old names', () => {
    expect(where('Milano, Italy')).toBe('Milan/IT');
    expect(where('Cologne')).toBe('Köln/DE');
    expect(where('Gothenburg, Sweden')).toBe('Göteborg/SE');
    expect(where('New York, NY, USA')).toBe('New York City/US');
    expect(where('Bombay')).toBe('Mumbai/IN');
    expect(where('Frankfurt, DE')).toBe('Frankfurt am Main/DE');
  });

  it('reads ports, airports, hubs and street addresses', () => {
    expect(where('Port of Rotterdam, Netherlands')).toBe('Rotterdam/NL');
    expect(where('Port of Rotterdam, NL')).toBe('Rotterdam/NL');
    expect(where('Rotterdam, NL')).toBe('Rotterdam/NL');
    expect(where('12 Dock Rd, Hamburg, Germany')).toBe('Hamburg/DE');
    expect(where('Narita Airport (NRT), Japan')).toBe('Narita/JP');
    expect(where('Leipzig Hub, Germany')).toBe('Leipzig/DE');
    expect(where('Wilhelminakade 88, 3072 AP Rotterdam, Netherlands')).toBe('Rotterdam/NL');
    expect(where('Rua Augusta 210, 1100-053 Lisboa, Portugal')).toBe('Lisbon/PT');
    expect(where('Plot 12, MIDC Andheri East, Mumbai 400093, India')).toBe('Mumbai/IN');
    expect(where('14 Marina Road, Lagos Island, Lagos, Nigeria')).toBe('Lagos/NG');
    expect(where('Plot 45, Central Business District, Abuja, Nigeria')).toBe('Abuja/NG');
    expect(where('1 Harbourfront Walk, Singapore 098585')).toBe('Singapore/SG');
    expect(where('Port Said, Egypt')).toBe('Port Said/EG');
    expect(where('Jebel Ali Port, UAE')).toBe('Dubai/AE');
  });

  it('uses the country to tell namesakes apart', () => {
    expect(where('Paris, France')).toBe('Paris/FR');
    expect(where('Paris, US')).toBe('Paris/US');
    expect(where('Paris')).toBe('Paris/FR');
    expect(where('London, Canada')).toBe('London/CA');
    expect(where('London, UK')).toBe('London/GB');
    expect(where('Valencia, Spain')).toBe('Valencia/ES');
    expect(where('Valencia, Venezuela')).toBe('Valencia/VE');
    expect(where('Hyderabad, Pakistan')).toBe('Hyderabad/PK');
    expect(where('Córdoba, España')).toBe('Córdoba/ES');
    expect(where('Cordoba, Argentine')).toBe('Córdoba/AR');
    // A two-letter code that is also a US state prefers that country or the US: Illinois, not Israel.
    expect(where('Chicago, IL')).toBe('Chicago/US');
    expect(where('Cambridge, MA')).toBe('Cambridge/US');
    expect(where('Vancouver, CA')).toBe('Vancouver/CA');
    expect(where('Casablanca, MA')).toBe('Casablanca/MA');
    expect(where('Atlanta, Georgia')).toBe('Atlanta/US');
    expect(where('Tbilisi, Georgia')).toBe('Tbilisi/GE');
  });

  it('puts a bare country at its capital, and an unknown town nowhere', () => {
    expect(where('Germany')).toBe('Berlin/DE');
    expect(where('The Netherlands')).toBe('Amsterdam/NL');
    expect(where('Germany (customs)')).toBe('Berlin/DE');
    expect(where('Smalltown, Germany')).toBeNull();
    expect(where('Paris, Japan')).toBeNull();
  });

  it('leaves places it does not know unresolved', () => {
    expect(where('Atlantic Ocean')).toBeNull();
    expect(where('At sea')).toBeNull();
    expect(where('')).toBeNull();
    expect(where(' , ')).toBeNull();
    expect(where('Warehouse 7')).toBeNull();
  });

  it('has a capital for every country it lists', () => {
    const places = parseGazetteer('=ZZ\nBig Town;Bigtown|10|20|c*\nLittle Town|-5|3|a');
    expect(places).toEqual([
      { name: 'Big Town', aliases: ['Bigtown'], country: 'ZZ', lat: 1, lon: 2, capital: true, size: 12 },
      { name: 'Little Town', aliases: [], country: 'ZZ', lat: 0.5, lon: 2.3, capital: false, size: 10 },
    ]);
    expect(createGazetteer(places).resolve('bigtown')?.name).toBe('Big Town');
  });
});

describe('the demo shipments', () => {
  it('are on the map: every origin, destination and place of their histories', () => {
    type Demo = { origin: string; destination: string; journey: Array<{ location: string }> };
    const demos = JSON.parse(demoJson) as Demo[];
    const places = demos.flatMap((d) => [d.origin, d.destination, ...d.journey.map((step) => step.location)]);
    expect(places.length).toBeGreaterThan(50);
    expect(places.filter((place) => !gazetteer.resolve(place))).toEqual([]);
    // Each in its own country, not a namesake elsewhere.
    expect(where('Nuevo Laredo border crossing, Mexico')).toBe('Nuevo Laredo/MX');
    expect(where('Port of Long Beach, CA, USA')).toBe('Long Beach/US');
    expect(where('Milan Malpensa Airport (MXP), Italy')).toBe('Milan/IT');
    expect(where('Cincinnati Hub (CVG), USA')).toBe('Cincinnati/US');
  });
});

describe('the projection', () => {
  it('crosses the Pacific on the Pacific map, and keeps Greenwich in the middle otherwise', () => {
    const centers = [0, 150];
    expect(centerFor([121.5, 103.9, 4.5, 13.4], centers)).toBe(0); // Shanghai, Singapore, Rotterdam, Berlin
    expect(centerFor([139.7, -149.9, -90], centers)).toBe(150); // Tokyo, Anchorage, Memphis
    expect(centerFor([151.2, -70.7, -74, 4.5], centers)).toBe(0); // Sydney, Santiago, New York, Rotterdam: no map fits
    expect(centerFor([], centers)).toBe(0);
    // The same place lands in the middle of its own map.
    expect(project(0, 150, 150).x).toBeCloseTo(FRAME.width / 2, 6);
    expect(project(10, -170, 150).x).toBeCloseTo(project(10, 190, 150).x, 6);
  });

  it('shows the route with room around it at a fixed aspect, inside the world', () => {
    const points = [project(31.2, 121.5), project(51.9, 4.5)];
    const view = viewOf(points);
    expect(view.width / view.height).toBeCloseTo(ASPECT, 6);
    for (const p of points) {
      expect(p.x).toBeGreaterThan(view.x);
      expect(p.x).toBeLessThan(view.x + view.width);
      expect(p.y).toBeGreaterThan(view.y);
      expect(p.y).toBeLessThan(view.y + view.height);
    }
    expect(view.x).toBeGreaterThanOrEqual(0);
    expect(view.x + view.width).toBeLessThanOrEqual(FRAME.width);
    // One place still shows its region; no place shows the world.
    expect(viewOf([project(52.5, 13.4)]).width).toBeCloseTo(0.2 * FRAME.width, 6);
    expect(viewOf([]).width).toBe(FRAME.width);
  });

  it('draws one arc per leg and skips a repeated point', () => {
    const a = { x: 0, y: 100 };
    const b = { x: 100, y: 100 };
    expect(routePath([a, b, b])).toBe('M0 100Q50 85 100 100');
    expect(routePath([b, a])).toBe('M100 100Q50 85 0 100');
    expect(routePath([])).toBe('');
  });
});
