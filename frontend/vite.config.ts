import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, URL } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { compileCatalogue, readCatalogues, withBrandMessages } from './scripts/catalogues.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));

/** White-label settings an operator may put in brand.json (or the file BRAND_FILE names); they
 * replace the defaults in src/config/company.ts at build time. */
function brandOverrides(): { messages?: Record<string, Record<string, string>> } {
  const file = resolve(here, process.env.BRAND_FILE ?? 'brand.json');
  if (!existsSync(file)) {
    if (process.env.BRAND_FILE) throw new Error(`BRAND_FILE=${process.env.BRAND_FILE}: no such file`);
    return {};
  }
  return JSON.parse(readFileSync(file, 'utf8'));
}

const brand = brandOverrides();

const localesDir = resolve(here, 'src/locales');

/** Every catalogue compiled for @lingui/core, with the brand file's rewordings applied
 * (scripts/catalogues.mjs); a bad rewording stops the build. */
function compiledCatalogues(): Record<string, Record<string, Record<string, unknown>>> {
  const catalogues = withBrandMessages(readCatalogues(localesDir), brand.messages);
  return Object.fromEntries(
    Object.entries(catalogues).map(([language, pages]) => [
      language,
      Object.fromEntries(Object.entries(pages).map(([page, messages]) => [page, compileCatalogue(messages)])),
    ]),
  );
}

const catalogues = compiledCatalogues();
/** Where the browser fetches the catalogues: /assets/messages-<hash>/<language>/<page>.json,
 * cached for good like every other file under /assets/. */
const messagesPath = `/assets/messages-${createHash('sha256').update(JSON.stringify(catalogues)).digest('hex').slice(0, 10)}`;

/** The catalogues as JSON files for the browser (each fetched in the visitor's language only),
 * and as modules for the prerender, which imports them all. */
function messageCatalogues(): Plugin {
  const catalogue = /[\\/]src[\\/]locales[\\/](\w+)[\\/](\w+)\.json$/;
  return {
    name: 'message-catalogues',
    enforce: 'pre',
    load(id) {
      const match = catalogue.exec(id);
      if (!match) return null;
      const messages = catalogues[match[1]]?.[match[2]] ?? {};
      return { code: `export default JSON.parse(${JSON.stringify(JSON.stringify(messages))});`, moduleType: 'js' };
    },
    configureServer(server) {
      // `npm run dev`: the files as they are now.
      server.middlewares.use(messagesPath, (request, response, next) => {
        const match = /^\/(\w+)\/(\w+)\.json$/.exec(request.url ?? '');
        const messages = match && compiledCatalogues()[match[1]]?.[match[2]];
        if (!messages) return next();
        response.setHeader('Content-Type', 'application/json');
        response.end(JSON.stringify(messages));
      });
    },
    generateBundle() {
      if (this.environment.config.build.ssr) return;
      for (const [language, pages] of Object.entries(catalogues)) {
        for (const [page, messages] of Object.entries(pages)) {
          this.emitFile({ type: 'asset', fileName: `${messagesPath.slice(1)}/${language}/${page}.json`, source: JSON.stringify(messages) });
        }
      }
    },
  };
}

// https://vite.dev/config/
export default defineConfig({
  plugins: [messageCatalogues(), react()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  define: {
    // The site's rewordings reach the pages through the catalogues, not the company settings.
    __BRAND__: JSON.stringify({ ...brand, messages: undefined }),
    __MESSAGES_PATH__: JSON.stringify(messagesPath),
    // The day the pages were prerendered; the client build and the prerender share it
    // (scripts/build-site.mjs sets it once) so the legal pages hydrate without a mismatch.
    __BUILD_DATE__: JSON.stringify(process.env.BUILD_DATE ?? new Date().toISOString().slice(0, 10)),
  },
  build: {
    outDir: 'dist',
    // The prerender script finds each route's chunk and CSS in it.
    manifest: true,
    // No inline data: URLs, so a strict Content-Security-Policy needs no exception.
    assetsInlineLimit: 0,
  },
  server: {
    // `npm run dev` proxies the gRPC-web calls to a gateway running on :8080.
    proxy: { '/logistics.v1.': 'http://127.0.0.1:8080' },
  },
});
