import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, URL } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const here = fileURLToPath(new URL('.', import.meta.url));

/** White-label settings an operator may put in brand.json (or the file BRAND_FILE names); they
 * replace the defaults in src/config/company.ts at build time. */
function brandOverrides(): unknown {
  const file = resolve(here, process.env.BRAND_FILE ?? 'brand.json');
  if (!existsSync(file)) {
    if (process.env.BRAND_FILE) throw new Error(`BRAND_FILE=${process.env.BRAND_FILE}: no such file`);
    return {};
  }
  return JSON.parse(readFileSync(file, 'utf8'));
}

// https://vite.dev/config/
export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  define: {
    __BRAND__: JSON.stringify(brandOverrides()),
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
