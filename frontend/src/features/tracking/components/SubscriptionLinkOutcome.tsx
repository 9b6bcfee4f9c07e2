import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { AlertCircle, CheckCircle2 } from 'lucide-react';
import { Spinner } from '@/components/ui/Spinner';
import { useMessages } from '@/lib/i18n';
import { followSubscriptionLink, type SubscriptionLink } from '../api/subscription-links';

type Props = {
  link: SubscriptionLink;
  trackingNumber: string;
  /** Called once the link has been followed, whatever the outcome. */
  onDone: (kind: SubscriptionLink['kind']) => void;
};

/** Follows the confirmation or unsubscribe link the visitor opened (once) and says how it went,
 * above the tracking result. Loaded only when the address carries such a link. */
export default function SubscriptionLinkOutcome({ link, trackingNumber, onDone }: Props) {
  const t = useMessages('track');
  const { kind, token } = link;
  // One call per link for the life of the page, whatever re-renders or a second mount
  // (StrictMode) do: a link is followed once, its answer kept.
  const { data: result } = useQuery({
    queryKey: ['subscription-link', kind, token],
    queryFn: () => followSubscriptionLink({ kind, token }, trackingNumber),
    staleTime: Infinity,
    gcTime: Infinity,
  });
  useEffect(() => {
    if (result) onDone(kind);
  }, [result, kind, onDone]);

  if (!result) {
    return (
      <div className="link-notice-working">
        <Spinner size="sm" label={kind === 'confirm' ? t('track.link.confirming') : t('track.link.unsubscribing')} />
      </div>
    );
  }
  return (
    <div
      className={`alert ${result.ok ? 'alert-success' : 'alert-error'} link-notice`}
      role={result.ok ? 'status' : 'alert'}
      data-testid="subscription-link-outcome"
    >
      {result.ok ? <CheckCircle2 aria-hidden="true" size={22} /> : <AlertCircle aria-hidden="true" size={22} />}
      <p>{result.message}</p>
    </div>
  );
}
