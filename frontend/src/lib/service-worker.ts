/** Registers public/sw.js (offline pages and app shell) from the bundle: the CSP allows no
 * inline script. Development builds go without it so Vite's live reload is never cached. */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const register = () => {
    navigator.serviceWorker.register('/sw.js').catch((error: unknown) => {
      console.warn('The offline service worker could not be registered', error);
    });
  };
  // After the page's own downloads; the app may start after `load` (its messages come first).
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
