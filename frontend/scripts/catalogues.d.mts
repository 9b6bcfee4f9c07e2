// Types of scripts/catalogues.mjs for vite.config.ts and the catalogue tests.
/** { [language]: { [page]: { [id]: message } } } */
export type Catalogues = Record<string, Record<string, Record<string, string>>>;
export const SOURCE_LANGUAGE: string;
export function readCatalogues(dir: string): Catalogues;
export function placeholders(message: string): string[];
export function withBrandMessages(catalogues: Catalogues, brandMessages: unknown): Catalogues;
export function compileCatalogue(messages: Record<string, string>): Record<string, unknown>;
