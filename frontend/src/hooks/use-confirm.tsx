import { useCallback, useState, type ReactNode } from 'react';
import { ConfirmDialog } from '@/components/ui/Modal';

type Question = { title: string; body: ReactNode; confirmLabel: string; cancelLabel?: string };
type Open = Question & { answer: (yes: boolean) => void };

/** The product's own "are you sure?" in place of the browser's `confirm()`: `ask` opens the
 * dialog and resolves true on the action, false on the safe choice; render `dialog`. */
export function useConfirm(): { ask: (question: Question) => Promise<boolean>; dialog: ReactNode } {
  const [open, setOpen] = useState<Open | null>(null);
  const ask = useCallback((question: Question) => new Promise<boolean>((answer) => setOpen({ ...question, answer })), []);
  const close = (yes: boolean) => {
    open?.answer(yes);
    setOpen(null);
  };
  const dialog = open ? (
    <ConfirmDialog title={open.title} confirmLabel={open.confirmLabel} cancelLabel={open.cancelLabel} onConfirm={() => close(true)} onCancel={() => close(false)}>
      <p>{open.body}</p>
    </ConfirmDialog>
  ) : null;
  return { ask, dialog };
}
