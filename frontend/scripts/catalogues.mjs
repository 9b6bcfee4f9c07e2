// The web site's message catalogues (src/locales/<language>/<page>.json, ICU MessageFormat):
// read, reworded by the brand file's `messages`, and compiled for @lingui/core at build time,
// so the browser gets no message parser. Used by vite.config.ts and the catalogue tests.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileMessage } from '@lingui/message-utils/compileMessage';

export const SOURCE_LANGUAGE = 'en';

/** Every catalogue: { [language]: { [page]: { [id]: message } } }. */
export function readCatalogues(dir) {
  const all = {};
  for (const language of readdirSync(dir, { withFileTypes: true })) {
    if (!language.isDirectory()) continue;
    all[language.name] = {};
    for (const file of readdirSync(join(dir, language.name))) {
      if (!file.endsWith('.json')) continue;
      all[language.name][file.slice(0, -'.json'.length)] = JSON.parse(readFileSync(join(dir, language.name, file), 'utf8'));
    }
  }
  return all;
}

/** The names a message fills in and the tags it wraps text in, sorted: "Hi {name}, <0>go</0>"
 * → ["<0>", "name"]. A translation must use exactly those of its English. */
export function placeholders(message) {
  const found = new Set();
  // A compiled message is a list of text and variables; a variable is ["name"] or
  // ["name", "plural", { one: list, other: list }].
  const walk = (list) => {
    for (const part of typeof list === 'string' ? [list] : list) {
      if (typeof part === 'string') {
        for (const tag of part.matchAll(/<(\w+)\/?>/g)) found.add(`<${tag[1]}>`);
      } else {
        found.add(part[0]);
        if (part[2] && typeof part[2] === 'object') Object.values(part[2]).filter((branch) => branch !== undefined).forEach(walk);
      }
    }
  };
  walk(compileMessage(message));
  return [...found].sort();
}

/** The ids of the brand file's `messages` that are the web site's: the e-mails' start with
 * `email.` or `status.` and are checked by the notifications service. */
function webOverrides(brandMessages = {}) {
  const out = {};
  for (const [language, messages] of Object.entries(brandMessages ?? {})) {
    for (const [id, text] of Object.entries(messages ?? {})) {
      if (id.startsWith('email.') || id.startsWith('status.')) continue;
      (out[language] ??= {})[id] = text;
    }
  }
  return out;
}

/** The catalogues with the brand file's rewordings applied; throws, naming the key, for an
 * unknown language or id, a text that is not one line, or placeholders that differ from the
 * English message's. */
export function withBrandMessages(catalogues, brandMessages) {
  const result = structuredClone(catalogues);
  for (const [language, messages] of Object.entries(webOverrides(brandMessages))) {
    if (!result[language]) throw new Error(`brand file: messages.${language}: no such language (one of ${Object.keys(result).join(', ')})`);
    for (const [id, text] of Object.entries(messages)) {
      const at = `brand file: messages.${language}.${id}`;
      const page = Object.keys(result[SOURCE_LANGUAGE]).find((p) => id in result[SOURCE_LANGUAGE][p]);
      if (!page) throw new Error(`${at}: no message of the site has this id`);
      if (typeof text !== 'string' || !text.trim() || /[\r\n]/.test(text)) throw new Error(`${at} must be one line of text`);
      const english = result[SOURCE_LANGUAGE][page][id];
      if (placeholders(text).join() !== placeholders(english).join()) {
        throw new Error(`${at} must use the placeholders of "${english}"`);
      }
      result[language][page][id] = text;
    }
  }
  return result;
}

/** A page's catalogue as @lingui/core reads it. */
export function compileCatalogue(messages) {
  return Object.fromEntries(Object.entries(messages).map(([id, message]) => [id, compileMessage(message)]));
}
