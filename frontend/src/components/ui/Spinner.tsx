type SpinnerProps = { label?: string; size?: 'sm' | 'md' | 'lg' };

/** An accessible loading indicator. */
export function Spinner({ label = 'Loading…', size = 'md' }: SpinnerProps) {
  return (
    <span className={`spinner spinner-${size}`} role="status">
      <span className="spinner-circle" aria-hidden="true" />
      <span className="visually-hidden">{label}</span>
    </span>
  );
}

/** Centred spinner shown while a route's code loads. */
export function PageSpinner() {
  return (
    <div className="page-spinner">
      <Spinner size="lg" label="Loading page…" />
    </div>
  );
}
