import { useEffect, useState } from 'react';
import { Check, Copy } from 'lucide-react';
import { toast } from '@/lib/toast';
import { copyText } from '../utils/copy-text';
import { COPIED_MESSAGE } from '../utils/messages';

const CHECK_VISIBLE_MS = 2000;

/** Copies the tracking number; shows a check for 2 s and a toast. */
export function CopyTrackingNumberButton({ trackingNumber }: { trackingNumber: string }) {
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const timer = window.setTimeout(() => setCopied(false), CHECK_VISIBLE_MS);
    return () => window.clearTimeout(timer);
  }, [copied]);

  const onClick = async () => {
    try {
      await copyText(trackingNumber);
      setCopied(true);
      toast.success(COPIED_MESSAGE, { toastId: 'tracking-number-copied' });
    } catch {
      toast.error('Could not copy the tracking number. Please select it and copy it by hand.');
    }
  };

  return (
    <button
      type="button"
      className={`icon-button copy-button${copied ? ' is-copied' : ''}`}
      aria-label="Copy tracking number"
      title="Copy tracking number"
      data-copied={copied}
      onClick={onClick}
    >
      {copied ? (
        <Check aria-hidden="true" size={18} data-icon="check" />
      ) : (
        <Copy aria-hidden="true" size={18} data-icon="copy" />
      )}
      <span className="visually-hidden" aria-live="polite">
        {copied ? 'Copied' : ''}
      </span>
    </button>
  );
}
