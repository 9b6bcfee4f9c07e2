import { createContext, useContext, useEffect } from 'react';
import { company } from '@/config/company';

/** Set only while prerendering: receives the page's title for the static HTML's <title>. */
export const DocumentTitleContext = createContext<((title: string) => void) | null>(null);

/** Sets the tab title to "<title> | <company>". */
export function useDocumentTitle(title: string): void {
  const full = title ? `${title} | ${company.name}` : company.name;
  useContext(DocumentTitleContext)?.(full);
  useEffect(() => {
    document.title = full;
  }, [full]);
}
