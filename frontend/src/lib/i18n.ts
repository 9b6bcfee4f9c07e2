// The site's messages: one catalogue per language and page (src/locales/<language>/<page>.json,
// compiled at build time by vite.config.ts and served as JSON), loaded for the visitor's
// language only. Lingui's
// core formats them (interpolation, plurals); the React side is the hooks below and <Trans>
// (src/lib/trans.tsx).
import { use, useSyncExternalStore } from 'react';
import { i18n, setupI18n, type I18n, type Messages } from '@lingui/core';
import { DEFAULT_LANGUAGE, type LanguageCode } from '@/config/languages';

/** The pages with their own catalogue; `common` has the layout, toasts, errors and the 404. */
export type Page = 'common' | 'home' | 'about' | 'services' | 'contact' | 'track' | 'faq' | 'privacy' | 'terms' | 'not_found' | 'account' | 'portal' | 'ship_with_us' | 'quote' | 'courier';

type Loading = Promise<void> & { status?: 'fulfilled' };
const loading = new Map<string, Loading>();
const fetched = new Map<string, Promise<Messages>>();

/** A catalogue's JSON, fetched once (the page preloads its own: scripts/build-site.mjs). */
function fetchCatalogue(language: LanguageCode, page: Page): Promise<Messages> {
  const key = `${language}/${page}`;
  let promise = fetched.get(key);
  if (!promise) {
    promise = fetch(`${__MESSAGES_PATH__}/${key}.json`).then((response) => {
      if (!response.ok) throw new Error(`catalogue ${key}: HTTP ${response.status}`);
      return response.json() as Promise<Messages>;
    });
    fetched.set(key, promise);
  }
  return promise;
}

function load(language: LanguageCode, page: Page): Loading {
  const key = `${language}/${page}`;
  let promise = loading.get(key);
  if (!promise) {
    // In the visitor's language only.
    const loaded: Loading = fetchCatalogue(language, page).then((messages) => i18n.load(language, messages));
    // Tagged, so use() returns at once on every later render instead of suspending again.
    void loaded.then(() => (loaded.status = 'fulfilled'));
    loading.set(key, loaded);
    promise = loaded;
  }
  return promise;
}

/** Loads the catalogues of `pages` in `language` and makes it the site's language. */
export async function startLanguage(language: LanguageCode, pages: readonly Page[]): Promise<void> {
  await Promise.all(pages.map((page) => load(language, page)));
  i18n.activate(language);
}

/** For the prerender, which has every catalogue at hand. */
export function addCatalogue(language: LanguageCode, page: Page, messages: Messages): void {
  i18n.load(language, messages);
  const done: Loading = Promise.resolve();
  done.status = 'fulfilled';
  loading.set(`${language}/${page}`, done);
}

/** The visitor's language. */
export function currentLanguage(): LanguageCode {
  return (i18n.locale || DEFAULT_LANGUAGE) as LanguageCode;
}

// Components re-render when a catalogue arrives or the language changes.
let version = 0;
i18n.on('change', () => (version += 1));
const subscribe = (onChange: () => void) => i18n.on('change', onChange);
const getVersion = () => version;

/** The active language; re-renders the component when it changes. */
export function useCurrentLanguage(): LanguageCode {
  useSyncExternalStore(subscribe, getVersion, getVersion);
  return currentLanguage();
}

export type Translate = (id: string, values?: Record<string, unknown>) => string;

/** The translate function of the visitor's language for a component of `page`; suspends until
 * that page's catalogue is loaded. */
export function useMessages(page: Page): Translate {
  const language = useCurrentLanguage();
  use(load(language, page) as Promise<void>);
  return translate;
}

const translate: Translate = (id, values) => i18n._(id, values);

type Reading = Promise<Translate> & { status?: 'fulfilled'; value?: Translate };
const readers = new Map<LanguageCode, I18n>();
const reading = new Map<string, Reading>();

/** The translate function of `language` for `page`, whatever the page's own language: for a
 * part shown in the reader's language inside an English page (the account page in the back
 * office). Suspends until that catalogue is loaded. */
export function useMessagesIn(language: LanguageCode, page: Page): Translate {
  const key = `${language}/${page}`;
  let promise = reading.get(key);
  if (!promise) {
    const loaded: Reading = fetchCatalogue(language, page).then((messages) => {
      let reader = readers.get(language);
      if (reader) reader.load(language, messages);
      else readers.set(language, (reader = setupI18n({ locale: language, messages: { [language]: messages } })));
      const own = reader;
      return (id: string, values?: Record<string, unknown>) => own._(id, values);
    });
    // Tagged with its value, so use() returns at once on every later render.
    void loaded.then((value) => Object.assign(loaded, { status: 'fulfilled', value }));
    reading.set(key, loaded);
    promise = loaded;
  }
  return use(promise as Promise<Translate>);
}

export { i18n };
