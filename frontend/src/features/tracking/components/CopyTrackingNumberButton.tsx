import { useEffect, useState } from 'react';
import { Check, Copy } from 'lucide-react';
import { toast } from '@/lib/toast';
import { COPIED_MESSAGE } from '../utils/messages';

const CHECK_VISIBLE_MS = 2000;

async function copyText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    await navigator.clipboard.writeText(text);
    return;
  }
  // Fallback for browsers without the async clipboard API.
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.className = 'visually-hidden';
  document.body.appendChild(area);
  area.select();
  const ok = document.execCommand('copy');
  area.remove();
  if (!ok) throw new Error('copy failed');
}

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
