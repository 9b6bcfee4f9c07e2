// The colour theme: a `dark` class on <html>, the visitor's choice kept in localStorage.
// public/theme-init.js applies the same rule before the first paint.

export type Theme = 'light' | 'dark';

export const THEME_STORAGE_KEY = 'theme';

/** The stored choice wins; otherwise the system colour-scheme preference. */
export function resolveTheme(stored: string | null | undefined, systemPrefersDark: boolean): Theme {
  if (stored === 'dark' || stored === 'light') return stored;
  return systemPrefersDark ? 'dark' : 'light';
}

export function readStoredTheme(): string | null {
  try {
    return window.localStorage.getItem(THEME_STORAGE_KEY);
  } catch (err) {
    console.warn('Could not read the saved theme', err);
    return null;
  }
}

export function storeTheme(theme: Theme): void {
  try {
    window.localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch (err) {
    console.warn('Could not save the theme', err);
  }
}

export function systemPrefersDark(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-color-scheme: dark)').matches;
}

export function currentTheme(): Theme {
  return document.documentElement.classList.contains('dark') ? 'dark' : 'light';
}

export function applyTheme(theme: Theme): void {
  document.documentElement.classList.toggle('dark', theme === 'dark');
}
