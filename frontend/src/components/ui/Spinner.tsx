import { useMessages } from '@/lib/i18n';

type SpinnerProps = { label?: string; size?: 'sm' | 'md' | 'lg' };

/** An accessible loading indicator. */
export function Spinner({ label, size = 'md' }: SpinnerProps) {
  const t = useMessages('common');
  label ??= t('common.loading');
  return (
    <span className={`spinner spinner-${size}`} role="status">
      <span className="spinner-circle" aria-hidden="true" />
      <span className="visually-hidden">{label}</span>
    </span>
  );
}

/** Centred spinner shown while a route's code loads. */
export function PageSpinner() {
  const t = useMessages('common');
  return (
    <div className="page-spinner">
      <Spinner size="lg" label={t('common.loading_page')} />
    </div>
  );
}
