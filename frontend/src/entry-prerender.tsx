// Server entry of the build-time prerender (scripts/build-site.mjs): a route's HTML as the
// browser would first draw it, which main.tsx then hydrates.
import { StrictMode } from 'react';
import type { Messages } from '@lingui/core';
import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router-dom';
import { AppRoutes } from '@/app/routes';
import { company } from '@/config/company';
import { LANGUAGES, languageOfPath, pathInLanguage, type LanguageCode } from '@/config/languages';
import { addCatalogue, i18n, type Page } from '@/lib/i18n';
import { DocumentTitleContext } from '@/hooks/use-document-title';


for (const [file, module] of Object.entries(import.meta.glob<{ default: Messages }>('./locales/*/*.json', { eager: true }))) {
  const [, language, page] = /\/locales\/(\w+)\/(\w+)\.json$/.exec(file)!;
  addCatalogue(language as LanguageCode, page as Page, module.default);
}

export type PrerenderedPage = { html: string; title: string };

async function render(path: string, onTitle: (title: string) => void): Promise<string> {
  const { prelude } = await prerender(
    <StrictMode>
      <DocumentTitleContext value={onTitle}>
        <StaticRouter location={path}>
          <AppRoutes />
        </StaticRouter>
      </DocumentTitleContext>
    </StrictMode>,
    // One piece: React would otherwise move large sections out to be revealed by inline scripts.
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  return new Response(prelude).text();
}

export async function renderPage(path: string): Promise<PrerenderedPage> {
  i18n.activate(languageOfPath(path));
  let title = company.name;
  // The first pass loads the lazily imported page; the second finds it loaded and so renders
  // without suspending, which would add inline scripts (the CSP forbids them).
  await render(path, () => {});
  const html = await render(path, (value) => (title = value));
  return { html, title };
}

/** For the build script, which writes every page in every language. */
export const site = { languages: LANGUAGES, pathInLanguage };
