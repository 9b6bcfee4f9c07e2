import { Link2, Share2 } from 'lucide-react';
import { useLanguage } from '@/hooks/use-language';
import { useMessages } from '@/lib/i18n';
import { toast } from '@/lib/toast';
import { copyText } from '../utils/copy-text';

/** Shares the result's address (the Web Share API where the browser has it, else the link is
 * copied). The address is the plain /track/{number} in the page's language: never a token from
 * the visitor's own link. */
export function ShareButton({ trackingNumber }: { trackingNumber: string }) {
  const t = useMessages('track');
  const { path } = useLanguage();
  const canShare = typeof navigator.share === 'function';
  const url = `${window.location.origin}${path(`/track/${encodeURIComponent(trackingNumber)}`)}`;

  const onClick = async () => {
    if (canShare) {
      try {
        await navigator.share({
          title: t('track.share.title', { trackingNumber }),
          text: t('track.share.text', { trackingNumber }),
          url,
        });
      } catch (error) {
        // Closing the share sheet is not a failure.
        if (!(error instanceof DOMException && error.name === 'AbortError')) {
          toast.error(t('track.share.failed'));
        }
      }
      return;
    }
    try {
      await copyText(url);
      toast.success(t('track.share.copied'), { toastId: 'tracking-link-copied' });
    } catch {
      toast.error(t('track.share.copy_failed'));
    }
  };

  return (
    <button type="button" className="btn btn-outline result-action" onClick={onClick}>
      {canShare ? <Share2 aria-hidden="true" size={16} /> : <Link2 aria-hidden="true" size={16} />}
      {canShare ? t('track.share.share') : t('track.share.copy_link')}
    </button>
  );
}
