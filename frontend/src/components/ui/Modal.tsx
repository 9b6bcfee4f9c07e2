import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { X } from 'lucide-react';
import './modal.css';

type ModalProps = {
  title: string;
  /** Called on Escape, a click outside, the close button, a ModalCancelButton, and when the
   * browser closes the dialog; once confirmed when `dirty`. */
  onClose: () => void;
  children: ReactNode;
  size?: 'sm' | 'md' | 'lg';
  /** While true (e.g. saving), Escape and the close button do nothing. */
  busy?: boolean;
  /** The form inside has unsaved changes: closing asks before discarding them. */
  dirty?: boolean;
  /** An "are you sure?" that interrupts the task (ConfirmDialog). */
  role?: 'dialog' | 'alertdialog';
};

const DISCARD_TITLE = 'Discard unsaved changes?';
const DISCARD_MESSAGE = 'What you typed in this dialog has not been saved and will be lost.';

/** The dialog's own way to close, for its Cancel button: it asks first when there are unsaved changes. */
const CloseContext = createContext<() => void>(() => {});

/**
 * A modal dialog on the native <dialog> element opened with showModal(): the rest of the page is
 * inert (focus stays inside), focus moves into the dialog (to a `data-autofocus` element when
 * there is one), Escape or a click outside closes it and focus returns to the element that
 * opened it. Mount it to open it, unmount it to close it.
 */
export function Modal({ title, onClose, children, size = 'md', busy = false, dirty = false, role }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [asking, setAsking] = useState(false);
  const latest = useRef({ onClose, busy, dirty });
  useEffect(() => {
    latest.current = { onClose, busy, dirty };
  });
  const requestClose = useCallback(() => {
    const { busy, dirty, onClose } = latest.current;
    if (busy) return;
    if (dirty) setAsking(true);
    else onClose();
  }, []);

  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    // Escape is handled on its key rather than on `cancel`, which Chromium skips on a second Escape.
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      event.stopPropagation();
      requestClose();
    };
    // A click on the backdrop (the dialog element itself, outside its box) that also began there:
    // a text selection dragged out of the dialog is no click outside.
    const outside = (event: MouseEvent) => {
      if (event.target !== dialog) return false;
      const r = dialog.getBoundingClientRect();
      return event.clientX < r.left || event.clientX > r.right || event.clientY < r.top || event.clientY > r.bottom;
    };
    let downOutside = false;
    const onDown = (event: PointerEvent) => {
      downOutside = outside(event);
    };
    const onClick = (event: MouseEvent) => {
      if (downOutside && outside(event)) requestClose();
      downOutside = false;
    };
    dialog.addEventListener('keydown', onKey);
    dialog.addEventListener('pointerdown', onDown);
    dialog.addEventListener('click', onClick);
    return () => {
      dialog.removeEventListener('keydown', onKey);
      dialog.removeEventListener('pointerdown', onDown);
      dialog.removeEventListener('click', onClick);
      if (dialog.open) dialog.close();
      if (opener?.isConnected) opener.focus();
    };
  }, [requestClose]);

  return (
    <>
      <dialog
        ref={ref}
        className={`modal modal-${size}`}
        role={role}
        aria-labelledby={titleId}
        aria-modal="true"
        onCancel={(event) => {
          event.preventDefault();
          requestClose();
        }}
        onClose={() => {
          const dialog = ref.current;
          if (!dialog?.isConnected) return;
          // Closed by the browser itself: unsaved changes keep the dialog open and ask first.
          if (latest.current.dirty && !latest.current.busy) {
            dialog.showModal();
            setAsking(true);
          } else latest.current.onClose();
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
        <div className="modal-body">
          <CloseContext.Provider value={requestClose}>{children}</CloseContext.Provider>
        </div>
      </dialog>
      {asking && (
        <ConfirmDialog
          title={DISCARD_TITLE}
          confirmLabel="Discard changes"
          cancelLabel="Keep editing"
          onCancel={() => setAsking(false)}
          onConfirm={() => {
            setAsking(false);
            latest.current.onClose();
          }}
        >
          <p>{DISCARD_MESSAGE}</p>
        </ConfirmDialog>
      )}
    </>
  );
}

/** A dialog form's Cancel: closes the dialog it is in, asking first when there are unsaved changes. */
export function ModalCancelButton({ disabled, children = 'Cancel' }: { disabled?: boolean; children?: ReactNode }) {
  const close = useContext(CloseContext);
  return (
    <button type="button" className="btn btn-outline" onClick={close} disabled={disabled}>
      {children}
    </button>
  );
}

type ConfirmDialogProps = {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  onConfirm: () => void;
  onCancel: () => void;
  /** While the confirmed action runs: both buttons wait. */
  busy?: boolean;
};

/** The product's own "are you sure?": what is about to happen, a safe choice (focused) and the
 * action. Escape, a click outside and the close button choose the safe one. */
export function ConfirmDialog({ title, children, confirmLabel, cancelLabel = 'Cancel', onConfirm, onCancel, busy }: ConfirmDialogProps) {
  return (
    <Modal title={title} onClose={onCancel} size="sm" busy={busy} role="alertdialog">
      <div className="confirm-body">{children}</div>
      <div className="modal-footer">
        <button type="button" className="btn btn-outline" onClick={onCancel} disabled={busy} data-autofocus>
          {cancelLabel}
        </button>
        <button type="button" className="btn btn-danger" onClick={onConfirm} disabled={busy}>
          {confirmLabel}
        </button>
      </div>
    </Modal>
  );
}
