import { describe, expect, it } from 'vitest';
import { normalizePath } from './prerender';

describe('normalizePath', () => {
  it('drops trailing slashes but keeps the root', () => {
    expect(normalizePath('/about/')).toBe('/about');
    expect(normalizePath('/about')).toBe('/about');
    expect(normalizePath('/')).toBe('/');
    expect(normalizePath('/track/PSE123//')).toBe('/track/PSE123');
  });
});
