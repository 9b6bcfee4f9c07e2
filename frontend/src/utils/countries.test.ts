import { describe, expect, it } from 'vitest';
import { COUNTRY_CODES, countryName, countryOptions, placeName } from './countries';

describe('countries', () => {
  it('lists every ISO 3166-1 alpha-2 code once', () => {
    expect(COUNTRY_CODES).toHaveLength(249);
    expect(new Set(COUNTRY_CODES).size).toBe(249);
    for (const code of COUNTRY_CODES) expect(code).toMatch(/^[A-Z]{2}$/);
    expect(COUNTRY_CODES).toEqual([...COUNTRY_CODES].sort());
    for (const code of ['NG', 'NL', 'US', 'GB', 'SS', 'CW']) expect(COUNTRY_CODES).toContain(code);
  });

  it('names a country in the language asked for', () => {
    expect(countryName('NL', 'en-US')).toBe('Netherlands');
    expect(countryName('nl', 'fr')).toBe('Pays-Bas');
    expect(countryName('DE', 'es')).toBe('Alemania');
    expect(countryName('NG', 'ar')).toBe('نيجيريا');
    expect(countryName('Atlantis', 'en-US')).toBe('Atlantis');
  });

  it('sorts the options by their name in that language', () => {
    const english = countryOptions('en-US');
    expect(english).toHaveLength(249);
    expect(english[0]).toEqual({ code: 'AF', name: 'Afghanistan' });
    const names = english.map((o) => o.name);
    expect(names.indexOf('Netherlands')).toBeLessThan(names.indexOf('Nigeria'));
    const french = countryOptions('fr').map((o) => o.code);
    // "Allemagne" comes before "Pays-Bas", though DE and NL sort the other way in English too.
    expect(french.indexOf('DE')).toBeLessThan(french.indexOf('NL'));
    expect(french.indexOf('ZA')).toBeLessThan(french.indexOf('DE')); // Afrique du Sud
    const collator = new Intl.Collator('ar');
    const arabic = countryOptions('ar').map((o) => o.name);
    expect(arabic).toEqual([...arabic].sort(collator.compare));
  });

  it('names a place as "City, Country"', () => {
    expect(placeName(' Lagos ', 'NG', 'en-US')).toBe('Lagos, Nigeria');
    expect(placeName('', 'NL', 'en-US')).toBe('Netherlands');
  });
});
