// First, so that the pages' own CSS (imported by their components) comes after the shared rules.
import '@/styles/index.css';
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from '@/app/app';
import { pageOfPath } from '@/app/route-pages';
import { DEFAULT_LANGUAGE, languageByCode, languageOfPath } from '@/config/languages';
import { isInChosenLanguage } from '@/config/routes';
import { startLanguage } from '@/lib/i18n';
import { chosenLanguage } from '@/lib/language-choice';
import { normalizePath, prerenderedPageMatches, ROUTE_MISMATCH_CLASS } from '@/lib/prerender';
import { registerServiceWorker } from '@/lib/service-worker';

// The gateway answers /about with a redirect to /about/ (its folder); the app's URLs have no
// trailing slash.
const { pathname, search, hash } = window.location;
if (normalizePath(pathname) !== pathname) {
  window.history.replaceState(window.history.state, '', normalizePath(pathname) + search + hash);
}

// The page's language is its path's (the portal's and the courier app's: the one picked in this browser); changing it
// loads the page anew (the language switcher).
// Offline, a page never opened before in its language falls back to the English kept for
// offline use.
const pages = ['common', pageOfPath(window.location.pathname)] as const;
const language = isInChosenLanguage(window.location.pathname) ? chosenLanguage() : languageOfPath(window.location.pathname);
void startLanguage(language, pages)
  .then(() => language)
  .catch(() => startLanguage(DEFAULT_LANGUAGE, pages).then(() => DEFAULT_LANGUAGE))
  .then((shown) => {
    document.documentElement.lang = shown;
    document.documentElement.dir = languageByCode(shown).dir;
    start();
  });

function start() {
  const container = document.getElementById('root')!;
  const app = (
    <StrictMode>
      <App />
    </StrictMode>
  );

  // Prerendered HTML of this very route is hydrated; any other page (the SPA fallback serves the
  // Home page's HTML for /track/PSE…) is rendered from scratch.
  if (prerenderedPageMatches(document.documentElement, window.location.pathname)) {
    hydrateRoot(container, app);
  } else {
    container.textContent = '';
    createRoot(container).render(app);
    document.documentElement.classList.remove(ROUTE_MISMATCH_CLASS);
  }

  registerServiceWorker();
}
