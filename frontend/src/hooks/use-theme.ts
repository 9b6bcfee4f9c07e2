import { useCallback, useState } from 'react';
import { applyTheme, currentTheme, storeTheme, type Theme } from '@/lib/theme';

/** The theme that public/theme-init.js applied, and a toggle that saves the new choice. */
export function useTheme(): { theme: Theme; toggleTheme: () => void } {
  const [theme, setTheme] = useState<Theme>(() => currentTheme());
  const toggleTheme = useCallback(() => {
    const next: Theme = theme === 'dark' ? 'light' : 'dark';
    applyTheme(next);
    storeTheme(next);
    setTheme(next);
  }, [theme]);
  return { theme, toggleTheme };
}
