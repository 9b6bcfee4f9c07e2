import { Link2, Share2 } from 'lucide-react';
import { toast } from '@/lib/toast';
import { copyText } from '../utils/copy-text';

const LINK_COPIED_MESSAGE = 'Link copied to clipboard!';

/** Shares the result's address (the Web Share API where the browser has it, else the link is
 * copied). The address is the plain /track/{number}: never a token from the visitor's own link. */
export function ShareButton({ trackingNumber }: { trackingNumber: string }) {
  const canShare = typeof navigator.share === 'function';
  const url = `${window.location.origin}/track/${encodeURIComponent(trackingNumber)}`;

  const onClick = async () => {
    if (canShare) {
      try {
        await navigator.share({ title: `Shipment ${trackingNumber}`, text: `Track shipment ${trackingNumber}`, url });
      } catch (error) {
        // Closing the share sheet is not a failure.
        if (!(error instanceof DOMException && error.name === 'AbortError')) {
          toast.error('Could not share the link.');
        }
      }
      return;
    }
    try {
      await copyText(url);
      toast.success(LINK_COPIED_MESSAGE, { toastId: 'tracking-link-copied' });
    } catch {
      toast.error('Could not copy the link. Please copy it from the address bar.');
    }
  };

  return (
    <button type="button" className="btn btn-outline result-action" onClick={onClick}>
      {canShare ? <Share2 aria-hidden="true" size={16} /> : <Link2 aria-hidden="true" size={16} />}
      {canShare ? 'Share' : 'Copy link'}
    </button>
  );
}
