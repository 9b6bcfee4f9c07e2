import { useEffect, useState } from 'react';
import { Check, Copy } from 'lucide-react';
import { useMessages } from '@/lib/i18n';
import { toast } from '@/lib/toast';
import { copyText } from '../utils/copy-text';

const CHECK_VISIBLE_MS = 2000;

/** Copies the tracking number; shows a check for 2 s and a toast. */
export function CopyTrackingNumberButton({ trackingNumber }: { trackingNumber: string }) {
  const t = useMessages('track');
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
      toast.success(t('track.copy.done'), { toastId: 'tracking-number-copied' });
    } catch {
      toast.error(t('track.copy.failed'));
    }
  };

  return (
    <button
      type="button"
      className={`icon-button copy-button${copied ? ' is-copied' : ''}`}
      aria-label={t('track.copy.label')}
      title={t('track.copy.label')}
      data-copied={copied}
      onClick={onClick}
    >
      {copied ? (
        <Check aria-hidden="true" size={18} data-icon="check" />
      ) : (
        <Copy aria-hidden="true" size={18} data-icon="copy" />
      )}
      <span className="visually-hidden" aria-live="polite">
        {copied ? t('track.copy.copied') : ''}
      </span>
    </button>
  );
}
