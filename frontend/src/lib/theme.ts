// The colour theme: a `dark` class on <html>, the visitor's choice kept in localStorage.
// public/theme-init.js applies the same rule before the first paint.
//
// A stored per-user preference plugs in here without touching the toggle: call
// `adoptTheme(stored)` once it is loaded, and `onThemeChosen(save)` to save each new choice.

export type Theme = 'light' | 'dark';
/** What a visitor picks: a theme, or to follow the system's colour scheme. */
export type ThemeChoice = Theme | 'system';

export const THEME_STORAGE_KEY = 'theme';

/** The stored choice wins; otherwise the system colour-scheme preference. */
export function resolveTheme(stored: string | null | undefined, systemPrefersDark: boolean): Theme {
  if (stored === 'dark' || stored === 'light') return stored;
  return systemPrefersDark ? 'dark' : 'light';
}

function storeTheme(theme: Theme): void {
  try {
    window.localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch (err) {
    console.warn('Could not save the theme', err);
  }
}

/** The theme on the page now (server render: light, the page's default). */
export function currentTheme(): Theme {
  return document.documentElement.classList.contains('dark') ? 'dark' : 'light';
}

const themeListeners = new Set<() => void>();
const choiceListeners = new Set<(choice: ThemeChoice) => void>();

/** For useSyncExternalStore: called whenever the page's theme changes. */
export function subscribeTheme(listener: () => void): () => void {
  themeListeners.add(listener);
  return () => themeListeners.delete(listener);
}

export function applyTheme(theme: Theme): void {
  document.documentElement.classList.toggle('dark', theme === 'dark');
  themeListeners.forEach((listener) => listener());
}

/** A theme that comes from elsewhere (e.g. a signed-in user's stored preference): shown, and
 * kept locally so the next page load paints it before any script asks the server. */
export function adoptTheme(theme: Theme): void {
  // Kept first: listeners read the stored choice (storedThemeChoice) when told.
  storeTheme(theme);
  applyTheme(theme);
}

/** Tells the `onThemeChosen` listeners of a choice made here (theme-choice.ts has 'system'). */
export function announceThemeChoice(choice: ThemeChoice): void {
  choiceListeners.forEach((listener) => listener(choice));
}

/** The visitor's own choice (the toggle, the account page): shown, kept, and passed to
 * `onThemeChosen` listeners. */
export function chooseTheme(theme: Theme): void {
  adoptTheme(theme);
  announceThemeChoice(theme);
}

/** Hears every choice made with the toggle or the account page (to save it for a signed-in user). */
export function onThemeChosen(listener: (choice: ThemeChoice) => void): () => void {
  choiceListeners.add(listener);
  return () => choiceListeners.delete(listener);
}
