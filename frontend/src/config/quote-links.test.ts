import { describe, expect, it } from 'vitest';
import { portalBookFromQuotePath, portalLoginPath, portalNextPath } from './quote-links';

describe('booking from a quote', () => {
  it('puts the token and the service in the booking address', () => {
    expect(portalBookFromQuotePath('a.b-c_d.e', 'EXPRESS_AIR')).toBe('/portal/book?quote=a.b-c_d.e&service=EXPRESS_AIR');
  });

  it('sends a visitor to the sign-in with the booking as next', () => {
    const next = portalBookFromQuotePath('a.b.c', 'SEA');
    expect(portalLoginPath(next)).toBe('/portal/login?next=%2Fportal%2Fbook%3Fquote%3Da.b.c%26service%3DSEA');
    expect(new URLSearchParams(portalLoginPath(next).split('?')[1]).get('next')).toBe(next);
    expect(portalLoginPath()).toBe('/portal/login');
  });

  it("goes on only to the portal's own pages", () => {
    expect(portalNextPath('/portal/book?quote=a.b.c&service=SEA')).toBe('/portal/book?quote=a.b.c&service=SEA');
    expect(portalNextPath('/portal')).toBe('/portal');
    for (const bad of [null, '', 'https://evil.example/portal', '//evil.example', '/administration_and_development', '/portal/login', '/portal/login?next=/portal', '/portalx', '/portal/\\evil']) {
      expect(portalNextPath(bad), String(bad)).toBeNull();
    }
  });
});
