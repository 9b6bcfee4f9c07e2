// Applies the saved colour theme (or the system preference) before the first paint,
// so the page never flashes the wrong theme. Kept in sync with src/lib/theme.ts.
(function () {
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
  document.documentElement.classList.toggle('dark', dark);
})();
