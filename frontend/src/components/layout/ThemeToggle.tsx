import { Moon, Sun } from 'lucide-react';
import { useTheme } from '@/hooks/use-theme';

/** The floating light/dark switch at the bottom right of every page. */
export function ThemeToggle() {
  const { theme, toggleTheme } = useTheme();
  const dark = theme === 'dark';
  return (
    <button
      type="button"
      className="theme-toggle"
      onClick={toggleTheme}
      aria-label={dark ? 'Switch to light mode' : 'Switch to dark mode'}
      title={dark ? 'Switch to light mode' : 'Switch to dark mode'}
    >
      {dark ? <Sun aria-hidden="true" size={22} /> : <Moon aria-hidden="true" size={22} />}
    </button>
  );
}
