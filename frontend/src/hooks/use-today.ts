import { useHydrated } from './use-hydrated';

/**
 * Today as "YYYY-MM-DD". Prerendered HTML carries the build's date; hydration first renders that
 * same date (no mismatch) and then today's, as a page drawn in the browser does at once.
 */
export function useToday(): string {
  const hydrated = useHydrated();
  return hydrated ? new Date().toLocaleDateString('en-CA') : __BUILD_DATE__;
}
