// Server entry of the build-time prerender (scripts/build-site.mjs): a route's HTML as the
// browser would first draw it, which main.tsx then hydrates.
import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router-dom';
import { AppRoutes } from '@/app/routes';
import { company } from '@/config/company';
import { DocumentTitleContext } from '@/hooks/use-document-title';

export type PrerenderedPage = { html: string; title: string };

export async function renderPage(path: string): Promise<PrerenderedPage> {
  let title = company.name;
  // prerender (unlike renderToString) waits for the lazily loaded page instead of its spinner.
  const { prelude } = await prerender(
    <StrictMode>
      <DocumentTitleContext value={(value) => (title = value)}>
        <StaticRouter location={path}>
          <AppRoutes />
        </StaticRouter>
      </DocumentTitleContext>
    </StrictMode>,
  );
  return { html: await new Response(prelude).text(), title };
}
