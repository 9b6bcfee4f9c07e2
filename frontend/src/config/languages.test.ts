import { describe, expect, it } from 'vitest';
import { languageOfPath, pathInLanguage, pathWithoutLanguage } from './languages';

describe('languageOfPath', () => {
  it('reads the language prefix of a tracking link', () => {
    expect(languageOfPath('/es/track/PSE123456789')).toBe('es');
    expect(languageOfPath('/ar')).toBe('ar');
    expect(languageOfPath('/fr/faq')).toBe('fr');
  });

  it('is English without a prefix, or with a segment that only starts like one', () => {
    expect(languageOfPath('/track/PSE123456789')).toBe('en');
    expect(languageOfPath('/')).toBe('en');
    expect(languageOfPath('/essentials')).toBe('en');
    expect(languageOfPath('/services')).toBe('en');
  });
});

describe('pathWithoutLanguage', () => {
  it('gives the same page in English, and each language its prefix back', () => {
    expect(pathWithoutLanguage('/es/track/PSE1')).toBe('/track/PSE1');
    expect(pathWithoutLanguage('/fr')).toBe('/');
    expect(pathWithoutLanguage('/about')).toBe('/about');
    expect(pathInLanguage(pathWithoutLanguage('/ar/faq'), 'es')).toBe('/es/faq');
  });

  it('never makes a crafted path into a link to another host', () => {
    expect(pathWithoutLanguage('/es//evil.example/x')).toBe('/evil.example/x');
    expect(pathWithoutLanguage('//evil.example')).toBe('/evil.example');
  });
});
