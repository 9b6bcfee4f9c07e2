import { describe, expect, it } from 'vitest';
import { company, merge } from './company';

describe('company (white-label)', () => {
  it("defaults to the spec's values", () => {
    expect(company.name).toBe('Parcel Shipping Express');
    expect(company.figures).toMatchObject({ countries: '150+', years: '19+', packages: '1M+', satisfaction: '98%' });
    expect(company.figures).toMatchObject({ rating: '4.8', reviews: '1,482' });
    expect(company.currency).toBe('USD');
    expect(company.copyrightYear).toBe('2020');
  });

  it('brand.json replaces values key by key and lists whole', () => {
    const merged = merge(
      { name: 'A', social: { facebook: 'f', twitter: 't' }, list: [1, 2, 3] },
      { social: { twitter: 'T' }, list: [9] },
    );
    expect(merged).toEqual({ name: 'A', social: { facebook: 'f', twitter: 'T' }, list: [9] });
  });
});
