// `npm run build` after type-checking: the client build, then the prerender of the public
// marketing routes to static HTML in every language (hydrated by src/main.tsx), then the service worker's
// precache list, and last the precompressed copies (<file>.br, <file>.gz; scripts/precompress.mjs),
// which no step above sees. Writes dist/index.html (Home), dist/<route>/index.html,
// dist/<language>/<route>/index.html and dist/app.html, the unrendered shell for every other route.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'vite';
import { precompress } from './precompress.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const ssrOut = join(root, 'node_modules', '.tmp', 'prerender');

/** Routes served as static HTML, the route module each one shows and its catalogue. */
const PRERENDERED_ROUTES = [
  { path: '/', module: 'src/app/routes/home.tsx', page: 'home' },
  { path: '/about', module: 'src/app/routes/about.tsx', page: 'about' },
  { path: '/services', module: 'src/app/routes/services.tsx', page: 'services' },
  { path: '/contact', module: 'src/app/routes/contact.tsx', page: 'contact' },
  { path: '/privacy', module: 'src/app/routes/privacy.tsx', page: 'privacy' },
  { path: '/terms', module: 'src/app/routes/terms.tsx', page: 'terms' },
  { path: '/faq', module: 'src/app/routes/faq.tsx', page: 'faq' },
  { path: '/ship-with-us', module: 'src/app/routes/ship-with-us.tsx', page: 'ship_with_us' },
  { path: '/quote', module: 'src/app/routes/quote.tsx', page: 'quote' },
  { path: '/track', module: 'src/app/routes/track.tsx', page: 'track' },
];


// One date for both builds, so the legal pages hydrate without a mismatch.
process.env.BUILD_DATE ??= new Date().toLocaleDateString('en-CA');

await build({ root });
await build({
  root,
  logLevel: 'warn',
  build: {
    ssr: 'src/entry-prerender.tsx',
    outDir: ssrOut,
    emptyOutDir: true,
    manifest: false,
    copyPublicDir: false,
    rolldownOptions: {
      // The prerender has every catalogue at hand (eager import); that src/lib/i18n.ts also
      // imports them on demand is for the browser.
      onLog(level, log, handler) {
        if (log.code !== 'INEFFECTIVE_DYNAMIC_IMPORT') handler(level, log);
      },
    },
  },
});

const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));
const template = readFileSync(join(dist, 'index.html'), 'utf8');
// The languages and their paths come from src/config/languages.ts, through the prerender's entry.
const { renderPage, site } = await import(pathToFileURL(join(ssrOut, 'entry-prerender.js')).href);
const { languages: LANGUAGES, pathInLanguage: pathIn } = site;

/** The JS files a manifest entry loads at once (itself and its static imports), and their CSS. */
function closure(key, seen = new Set()) {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const imported of manifest[key].imports ?? []) closure(imported, seen);
  return seen;
}
const entryKeys = closure('index.html');

function routeAssets(moduleKey) {
  // Home is part of the entry chunk: nothing more to load.
  if (!manifest[moduleKey]) return { scripts: [], styles: [] };
  const keys = [...closure(moduleKey)].filter((key) => !entryKeys.has(key));
  return {
    scripts: keys.map((key) => `/${manifest[key].file}`),
    styles: keys.flatMap((key) => manifest[key].css ?? []).map((file) => `/${file}`),
  };
}

// The catalogues' JSON files, as vite.config.ts writes them: assets/messages-<hash>/<language>/<page>.json.
const [messagesDir] = readdirSync(join(dist, 'assets')).filter((name) => name.startsWith('messages-'));
if (!messagesDir) throw new Error('dist/assets/messages-*: no catalogues');

/** A catalogue's URL (src/locales/<language>/<page>.json), fetched with the page. */
function catalogueUrl(language, page) {
  const url = `/assets/${messagesDir}/${language}/${page}.json`;
  if (!existsSync(join(dist, url))) throw new Error(`no catalogue ${url}`);
  return url;
}

function escapeHtml(text) {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

writeFileSync(join(dist, 'app.html'), template);
const precache = new Set(['/app.html', '/theme-init.js', '/favicon.svg']);
for (const key of entryKeys) {
  precache.add(`/${manifest[key].file}`);
  for (const css of manifest[key].css ?? []) precache.add(`/${css}`);
}

for (const language of LANGUAGES) {
  for (const route of PRERENDERED_ROUTES) {
    const path = pathIn(route.path, language.code);
    const { html, title } = await renderPage(path);
    if (html.includes('<script')) throw new Error(`prerender of ${path}: inline script (a page suspended)`);
    const { scripts, styles } = routeAssets(route.module);
    // Only the visitor's language: the catalogues of the layout and of this page.
    const catalogues = [catalogueUrl(language.code, 'common'), catalogueUrl(language.code, route.page)];
    // The route's own code, CSS and messages load with the page, not after the entry asks for them.
    const links = [
      ...styles.map((href) => `<link rel="stylesheet" crossorigin href="${href}">`),
      ...scripts.map((href) => `<link rel="modulepreload" crossorigin href="${href}">`),
      // As src/lib/i18n.ts fetches them (same origin, CORS mode), so the preload is used.
      ...catalogues.map((href) => `<link rel="preload" as="fetch" crossorigin href="${href}">`),
      ...LANGUAGES.map((l) => `<link rel="alternate" hreflang="${l.code}" href="${pathIn(route.path, l.code)}">`),
      `<link rel="alternate" hreflang="x-default" href="${route.path}">`,
    ].join('\n    ');
    const page = template
      .replace('<html lang="en">', `<html lang="${language.code}" dir="${language.dir}" data-prerendered-route="${path}">`)
      .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(title)}</title>`)
      .replace('</head>', `  ${links}\n  </head>`)
      .replace('<div id="root"></div>', `<div id="root">${html}</div>`);
    if (page === template || !page.includes(html)) throw new Error(`prerender of ${path}: template markers not found`);
    const file = path === '/' ? join(dist, 'index.html') : join(dist, path.slice(1), 'index.html');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, page);
    // Offline, the site works in English (the other languages' files would all be downloaded).
    if (language.code === 'en') {
      precache.add(path);
      for (const asset of [...scripts, ...styles, ...catalogues]) precache.add(asset);
    }
    console.log(`prerendered ${path} → ${file.slice(root.length)}`);
  }
}

// The service worker's list of what to cache at install; its version changes with the build.
const swFile = join(dist, 'sw.js');
const urls = [...precache].sort();
const version = createHash('sha256').update(JSON.stringify(urls)).update(template).digest('hex').slice(0, 12);
const sw = readFileSync(swFile, 'utf8')
  .replace("const VERSION = 'dev';", `const VERSION = '${version}';`)
  .replace('const PRECACHE_URLS = [];', `const PRECACHE_URLS = ${JSON.stringify(urls)};`);
if (!sw.includes(version)) throw new Error('public/sw.js: VERSION / PRECACHE_URLS markers not found');
writeFileSync(swFile, sw);
rmSync(ssrOut, { recursive: true, force: true });
console.log(`service worker ${version}: ${urls.length} files precached`);

// Last, so the precache list and the prerendered pages never name a .br or .gz file.
const compressed = await precompress(dist);
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
console.log(
  `precompressed ${kb(compressed.bytes)}: ${compressed.br} .br (${kb(compressed.brBytes)}), ${compressed.gz} .gz (${kb(compressed.gzBytes)})`,
);
