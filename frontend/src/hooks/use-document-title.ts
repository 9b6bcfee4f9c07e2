import { useEffect } from 'react';
import { company } from '@/config/company';

/** Sets the tab title to "<title> | <company>". */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = title ? `${title} | ${company.name}` : company.name;
  }, [title]);
}
