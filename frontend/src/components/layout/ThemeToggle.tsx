import { Moon, Sun } from 'lucide-react';
import { useTheme } from '@/hooks/use-theme';
import { useMessages } from '@/lib/i18n';

/** The floating light/dark switch at the bottom right of every page. Both icons are rendered and
 * CSS shows the one for the page's theme, so prerendered pages show the right one at once. */
export function ThemeToggle() {
  const t = useMessages('common');
  const { theme, toggleTheme } = useTheme();
  const label = theme === 'dark' ? t('common.theme.to_light') : t('common.theme.to_dark');
  return (
    <button type="button" className="theme-toggle" onClick={toggleTheme} aria-label={label} title={label}>
      <Sun className="theme-icon-light" aria-hidden="true" size={22} />
      <Moon className="theme-icon-dark" aria-hidden="true" size={22} />
    </button>
  );
}
