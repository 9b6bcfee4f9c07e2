import { AlertCircle } from 'lucide-react';

/** A failure shown in place of what could not be loaded, announced to screen readers. */
export function ErrorAlert({ message }: { message: string }) {
  return (
    <div className="alert alert-error" role="alert">
      <AlertCircle aria-hidden="true" size={22} />
      <p>{message}</p>
    </div>
  );
}
