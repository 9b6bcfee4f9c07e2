import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '@lingui/core';
import { formatFigure } from './figures';

describe('formatFigure', () => {
  afterEach(() => i18n.activate('en'));
  it('keeps English as written and gives other languages their own words', () => {
    i18n.loadAndActivate({ locale: 'en', messages: {} });
    expect(formatFigure('1M+')).toBe('1M+');
    expect(formatFigure('50k+')).toBe('50k+');
    i18n.loadAndActivate({ locale: 'ar', messages: {} });
    expect(formatFigure('1M+')).toMatch(/^1\sمليون\+$/u);
    expect(formatFigure('98%')).toBe('98%');
  });
});
