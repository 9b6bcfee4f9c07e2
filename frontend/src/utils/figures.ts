// Marketing figures in the page's language; apart from format.ts, which the home page does not
// otherwise download.
import { i18n } from '@lingui/core';
import { DEFAULT_LANGUAGE, languageByCode, type LanguageCode } from '@/config/languages';

const FIGURE = /^(\d+(?:\.\d+)?)([kKM]?)(\+?)$/;
const SCALE: Record<string, number> = { '': 1, k: 1e3, K: 1e3, M: 1e6 };

/** A figure ("1M+", "50k+") in the page's language: English keeps the text as written; other
 * languages get their own compact words ("1 M+", Arabic "1 مليون+"), so no Latin letter sits in
 * an Arabic sentence. Anything else is returned unchanged. */
export function formatFigure(figure: string): string {
  const language = (i18n.locale || DEFAULT_LANGUAGE) as LanguageCode;
  const match = FIGURE.exec(figure.trim());
  if (!match || language === DEFAULT_LANGUAGE || !match[2]) return figure;
  const value = Number(match[1]) * SCALE[match[2]];
  const compact = new Intl.NumberFormat(languageByCode(language).locale, { notation: 'compact', maximumFractionDigits: 1 });
  return compact.format(value) + match[3];
}
