import { describe, expect, it } from 'vitest';
import { languageOfPath } from './languages';

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
