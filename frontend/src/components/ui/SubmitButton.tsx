import type { ReactNode } from 'react';
import { LoaderCircle } from 'lucide-react';

type SubmitButtonProps = { busy: boolean; busyLabel: string; disabled?: boolean; children: ReactNode };

/** A form's submit button: disabled with a spinner and its busy label (`Creating...`) while the form saves. */
export function SubmitButton({ busy, busyLabel, disabled = false, children }: SubmitButtonProps) {
  return (
    <button type="submit" className="btn btn-primary" disabled={busy || disabled}>
      {busy && <LoaderCircle className="icon-spin" aria-hidden="true" size={18} />}
      {busy ? busyLabel : children}
    </button>
  );
}
