/** Registers public/sw.js (offline pages and app shell) from the bundle: the CSP allows no
 * inline script. Development builds go without it so Vite's live reload is never cached. */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js').catch((error: unknown) => {
      console.warn('The offline service worker could not be registered', error);
    });
  });
}
