// Finds where a free-text location is: "Port of Rotterdam, NL", "12 Dock Rd, Hamburg, Germany".
// Pure functions over the bundled gazetteer (gazetteer-data.ts); no network, no state but a cache.
import { GAZETTEER } from './gazetteer-data';

export type Place = {
  /** GeoNames' name, e.g. "Köln". */
  name: string;
  /** Other names it is written under, e.g. ["Cologne"]. */
  aliases: readonly string[];
  /** ISO 3166-1 alpha-2, e.g. "NL". */
  country: string;
  lat: number;
  lon: number;
  capital: boolean;
  /** ⌊2·log10(population)⌋: a bigger place wins a tie between namesakes. */
  size: number;
};

const FOLDED: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i' };

/** Case-, accent- and punctuation-insensitive form of a name: "São Paulo" and "sao-paulo" → "sao paulo". */
export function normalize(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[ßæœøłđðþı]/g, (c) => FOLDED[c])
    .replace(/['’‘`ʼ]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .split(' ')
    .map((word) => (word === 'st' ? 'saint' : word === 'ste' ? 'sainte' : word))
    .join(' ');
}

/** Reads the compact text of gazetteer-data.ts (its format is described there). */
export function parseGazetteer(text: string): Place[] {
  const places: Place[] = [];
  let country = '';
  let lat = 0;
  let lon = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('=')) {
      country = line.slice(1);
      lat = 0;
      lon = 0;
      continue;
    }
    const [names, dLat, dLon, size] = line.split('|');
    const [name, ...aliases] = names.split(';');
    lat += Number(dLat);
    lon += Number(dLon);
    places.push({ name, aliases, country, lat: lat / 10, lon: lon / 10, capital: size.endsWith('*'), size: parseInt(size, 36) });
  }
  return places;
}

/** Words of a location that name the kind of site, not the place: "Port of", "Airport", "Hub". */
const SITE_WORDS = new Set(
  (
    'port of the airport international intl airfield harbour harbor terminal hub depot warehouse facility ' +
    'center centre distribution sorting logistics gateway customs border crossing station dock docks pier ' +
    'freight cargo container yard free zone area district region province county metro greater road street ' +
    'avenue boulevard plot suite unit building'
  ).split(' '),
);

/** Two-letter codes that are also US states (written after a US city), and country names that are a state. */
const US_STATES = new Set(
  ('AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND ' +
    'OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY').split(' '),
);
const STATE_NAMES = new Set(['georgia']);

/** Other names people write for a country, besides the Intl.DisplayNames of LANGUAGES. */
const COUNTRY_ALIASES: Record<string, string> = {
  usa: 'US', 'u s a': 'US', 'u s': 'US', 'united states of america': 'US', america: 'US',
  uk: 'GB', 'u k': 'GB', 'great britain': 'GB', britain: 'GB', england: 'GB', scotland: 'GB', wales: 'GB',
  'northern ireland': 'GB', uae: 'AE', 'u a e': 'AE', emirates: 'AE', holland: 'NL', 'czech republic': 'CZ',
  turkey: 'TR', 'ivory coast': 'CI', korea: 'KR', 'republic of korea': 'KR', russia: 'RU',
  'russian federation': 'RU', 'viet nam': 'VN', vietnam: 'VN', burma: 'MM', swaziland: 'SZ', 'cape verde': 'CV',
  drc: 'CD', 'dr congo': 'CD', 'democratic republic of the congo': 'CD', prc: 'CN', 'mainland china': 'CN',
  'hong kong sar': 'HK', macao: 'MO', vatican: 'VA', palestine: 'PS',
};
/** Languages whose country names are understood: the site's, and those of many shipping documents. */
const LANGUAGES = ['en', 'es', 'fr', 'ar', 'de', 'pt', 'it', 'nl'];

type CountryHint = { code: string; strong: boolean };

export type Gazetteer = {
  /** The place a location names, or null when it names none this gazetteer knows. */
  resolve(location: string): Place | null;
  /** The country's name in English ("NL" → "Netherlands"). */
  countryName(code: string): string;
};

export function createGazetteer(places: readonly Place[]): Gazetteer {
  const byName = new Map<string, Place[]>();
  const capitals = new Map<string, Place>();
  for (const place of places) {
    for (const name of [place.name, ...place.aliases]) {
      const key = normalize(name);
      const list = byName.get(key);
      if (list) list.push(place);
      else byName.set(key, [place]);
    }
    if (place.capital && !capitals.has(place.country)) capitals.set(place.country, place);
  }

  const codes = [...new Set(places.map((p) => p.country))];
  const countries = new Map<string, string>();
  const english = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
  for (const language of LANGUAGES) {
    const names = new Intl.DisplayNames([language], { type: 'region', fallback: 'none' });
    for (const code of codes) {
      const name = names.of(code);
      if (name) countries.set(normalize(name).replace(/^the /, ''), code);
    }
  }
  for (const [alias, code] of Object.entries(COUNTRY_ALIASES)) countries.set(alias, code);

  function countryOf(part: string): CountryHint | null {
    const trimmed = part.trim();
    if (/^[A-Za-z]{2}$/.test(trimmed)) {
      const code = trimmed.toUpperCase();
      return codes.includes(code) ? { code, strong: !US_STATES.has(code) } : null;
    }
    const key = normalize(trimmed.replace(/\([^)]*\)/g, ' ')).replace(/^the /, '');
    const code = countries.get(key);
    return code ? { code, strong: !STATE_NAMES.has(key) } : null;
  }

  /** What one comma-separated part may name, most literal first, with its quality (3 best). */
  function phrases(part: string): Array<[string, number]> {
    const words = normalize(part.replace(/\([^)]*\)/g, ' ')).split(' ').filter(Boolean);
    const withoutNumbers = words.filter((w) => !/\d/.test(w));
    const withoutSite = withoutNumbers.filter((w) => !SITE_WORDS.has(w));
    const out: Array<[string, number]> = [
      [words.join(' '), 3],
      [withoutNumbers.join(' '), 3],
      [withoutSite.join(' '), 2],
    ];
    // Any run of up to three words, longest first: "3072 AP Rotterdam" → "rotterdam".
    for (let length = Math.min(3, withoutNumbers.length); length >= 1; length--) {
      for (let start = 0; start + length <= withoutNumbers.length; start++) {
        const run = withoutNumbers.slice(start, start + length);
        if (run.every((w) => SITE_WORDS.has(w)) || (length === 1 && run[0].length < 3)) continue;
        out.push([run.join(' '), 1]);
      }
    }
    return out.filter(([phrase]) => phrase);
  }

  function resolve(location: string): Place | null {
    const parts = location.split(/[,;\n]/).filter((part) => part.trim());
    if (parts.length === 0) return null;
    const hints = parts.map(countryOf);
    const strong = new Set(hints.filter((h) => h?.strong).map((h) => h!.code));
    // "Cambridge, MA" may be in Morocco or in Massachusetts.
    const weak = new Set(hints.filter((h) => h && !h.strong).flatMap((h) => [h!.code, 'US']));

    let best: Place | null = null;
    let bestQuality = 0;
    for (const part of parts) {
      for (const [phrase, quality] of phrases(part)) {
        // Phrases come best first; an earlier part keeps a tie ("Kowloon, Hong Kong").
        if (quality <= bestQuality) break;
        let found = byName.get(phrase) ?? [];
        // A country named in full must hold the place ("Paris, US" is never Paris, France); a
        // two-letter code that is also a US state only prefers its country and the US ("Vancouver, CA").
        if (strong.size > 0) found = found.filter((p) => strong.has(p.country));
        else if (weak.size > 0 && found.some((p) => weak.has(p.country))) found = found.filter((p) => weak.has(p.country));
        const biggest = found.reduce<Place | null>(
          (a, b) => (!a || b.size > a.size || (b.size === a.size && b.capital && !a.capital) ? b : a),
          null,
        );
        if (biggest) {
          best = biggest;
          bestQuality = quality;
          break;
        }
      }
    }
    if (best) return best;
    // A bare country ("Germany") stands for its capital; "Smalltown, Germany" stays unknown.
    if (hints.every(Boolean)) return capitals.get(hints[hints.length - 1]!.code) ?? null;
    return null;
  }

  return { resolve, countryName: (code) => english.of(code) ?? code };
}

let shared: Gazetteer | undefined;

/** The gazetteer of the bundled data, built on first use (about 5,000 places). */
export function bundledGazetteer(): Gazetteer {
  shared ??= createGazetteer(parseGazetteer(GAZETTEER));
  return shared;
}
