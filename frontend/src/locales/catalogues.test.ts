/// <reference types="node" />
// The web site's catalogues: every language has every message of the English one and no other,
// with the same placeholders; every message is used by the code and every one the code names
// exists; a brand file's rewording is applied or refused by name.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { placeholders, readCatalogues, SOURCE_LANGUAGE, withBrandMessages } from '../../scripts/catalogues.mjs';
import { LANGUAGES } from '@/config/languages';

const here = fileURLToPath(new URL('.', import.meta.url));
const src = join(here, '..');
const catalogues = readCatalogues(here);
const english = catalogues[SOURCE_LANGUAGE];
const pages = Object.keys(english).sort();

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'gen' || entry.name === 'locales' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

// A message id in the code is a quoted literal starting with its page: 'track.status.delivered'.
const idPattern = new RegExp(`['"\`]((?:${pages.join('|')})\\.[a-z0-9_.]+[a-z0-9_])['"\`]`, 'gi');
const named = new Set(sourceFiles(src).flatMap((file) => [...readFileSync(file, 'utf8').matchAll(idPattern)].map((m) => m[1])));

describe('the site catalogues', () => {
  it('exist for every language of the site', () => {
    expect(Object.keys(catalogues).sort()).toEqual(LANGUAGES.map((l) => l.code).sort());
  });

  it.each(LANGUAGES.filter((l) => l.code !== SOURCE_LANGUAGE).map((l) => l.code))('%s has every English message and no other', (code) => {
    expect(Object.keys(catalogues[code]).sort()).toEqual(pages);
    for (const page of pages) {
      const ids = Object.keys(catalogues[code][page]).sort();
      const missing = Object.keys(english[page]).filter((id) => !(id in catalogues[code][page]));
      const extra = ids.filter((id) => !(id in english[page]));
      expect({ page, missing, extra }).toEqual({ page, missing: [], extra: [] });
      for (const id of ids) {
        expect(placeholders(catalogues[code][page][id]), `${code} ${id}`).toEqual(placeholders(english[page][id]));
        expect(catalogues[code][page][id].trim(), `${code} ${id}`).not.toBe('');
      }
    }
  });

  it("keeps each page's messages under its name", () => {
    for (const page of pages) {
      expect(Object.keys(english[page]).filter((id) => !id.startsWith(`${page}.`)), page).toEqual([]);
    }
  });

  it('has no message the code never names', () => {
    const unused = pages.flatMap((page) => Object.keys(english[page])).filter((id) => !named.has(id));
    expect(unused).toEqual([]);
  });

  it('has every message the code names', () => {
    const all = new Set(pages.flatMap((page) => Object.keys(english[page])));
    expect([...named].filter((id) => !all.has(id))).toEqual([]);
  });
});

describe("a brand file's messages", () => {
  const [page] = pages;
  const [id] = Object.keys(english[page]);

  it('reword the site in one language and leave the e-mail ids to the e-mails', () => {
    const reworded = withBrandMessages(catalogues, { fr: { [id]: 'Autre chose', 'email.hello': 'Salut' } });
    expect(reworded.fr[page][id]).toBe('Autre chose');
    expect(reworded.es[page][id]).toBe(catalogues.es[page][id]);
  });

  it('of brand.example.json apply', () => {
    const example = JSON.parse(readFileSync(join(src, '..', 'brand.example.json'), 'utf8'));
    expect(withBrandMessages(catalogues, example.messages).fr.home['home.hero.title']).toBe(example.messages.fr['home.hero.title']);
  });

  it.each([
    [{ de: { [id]: 'Hallo' } }, 'brand file: messages.de: no such language'],
    [{ es: { 'home.nope': 'x' } }, 'brand file: messages.es.home.nope: no message of the site has this id'],
    [{ es: { [id]: 'one\ntwo' } }, `brand file: messages.es.${id} must be one line of text`],
    [{ es: { [id]: 'Hola {stranger}' } }, `brand file: messages.es.${id} must use the placeholders of`],
  ])('refuse %j by name', (messages, problem) => {
    expect(() => withBrandMessages(catalogues, messages)).toThrow(problem);
  });
});
