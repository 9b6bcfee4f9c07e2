import { useEffect, useId, useLayoutEffect, useRef, type ReactNode } from 'react';
import { X } from 'lucide-react';
import './modal.css';

type ModalProps = {
  title: string;
  /** Called on Escape, on the close button and when the browser closes the dialog. */
  onClose: () => void;
  children: ReactNode;
  size?: 'md' | 'lg';
  /** While true (e.g. saving), Escape and the close button do nothing. */
  busy?: boolean;
};

/**
 * A modal dialog on the native <dialog> element opened with showModal(): the rest of the page is
 * inert (focus stays inside), focus moves into the dialog, Escape closes it and focus returns to
 * the element that opened it. Mount it to open it, unmount it to close it.
 */
export function Modal({ title, onClose, children, size = 'md', busy = false }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const latest = useRef({ onClose, busy });
  useEffect(() => {
    latest.current = { onClose, busy };
  });

  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    return () => {
      if (dialog.open) dialog.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  const requestClose = () => {
    if (!latest.current.busy) latest.current.onClose();
  };

  return (
    <dialog
      ref={ref}
      className={`modal modal-${size}`}
      aria-labelledby={titleId}
      aria-modal="true"
      onCancel={(event) => {
        event.preventDefault();
        requestClose();
      }}
      onClose={() => {
        // Closed by the browser itself (e.g. a second Escape): keep React's state in step.
        if (ref.current?.isConnected) latest.current.onClose();
      }}
    >
      <div className="modal-header">
        <h2 id={titleId} className="modal-title">
          {title}
        </h2>
        <button type="button" className="icon-button" aria-label="Close" onClick={requestClose} disabled={busy}>
          <X aria-hidden="true" size={20} />
        </button>
      </div>
      <div className="modal-body">{children}</div>
    </dialog>
  );
}
