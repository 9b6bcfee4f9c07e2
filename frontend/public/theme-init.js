// Runs before the first paint (an external file: the CSP forbids inline scripts).
// 1. Applies the saved colour theme, or the system preference, so the page never flashes the
//    wrong theme. Kept in sync with src/lib/theme.ts.
// 2. Hides prerendered HTML served for another route (the SPA fallback serves the Home page for
//    /track/PSE…) until the app has drawn the right page. Kept in sync with src/lib/prerender.ts.
(function () {
  var root = document.documentElement;
  var dark = false;
  try {
    var stored = window.localStorage.getItem('theme');
    if (stored === 'dark' || stored === 'light') {
      dark = stored === 'dark';
    } else {
      dark = window.matchMedia('(prefers-color-scheme: dark)').matches;
    }
  } catch (e) {
    dark = false;
  }
  root.classList.toggle('dark', dark);

  var route = root.getAttribute('data-prerendered-route');
  var path = window.location.pathname.replace(/\/+$/, '') || '/';
  if (route !== null && (route.replace(/\/+$/, '') || '/') !== path) root.classList.add('route-mismatch');
})();
