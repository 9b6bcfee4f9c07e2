import { useEffect, useState } from 'react';
import { AlertCircle, CheckCircle2 } from 'lucide-react';
import { Spinner } from '@/components/ui/Spinner';
import { useMessages } from '@/lib/i18n';
import {
  followSubscriptionLink,
  type SubscriptionLink,
  type SubscriptionLinkResult,
} from '../api/subscription-links';

// One call per link for the life of the page, whatever re-renders or a second effect run
// (StrictMode) do: a link is followed once.
const calls = new Map<string, Promise<SubscriptionLinkResult>>();

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
  const [result, setResult] = useState<SubscriptionLinkResult | null>(null);

  useEffect(() => {
    const key = `${kind}:${token}`;
    let current = true;
    let call = calls.get(key);
    if (!call) {
      call = followSubscriptionLink({ kind, token }, trackingNumber);
      calls.set(key, call);
    }
    void call.then((answer) => {
      if (!current) return;
      setResult(answer);
      onDone(kind);
    });
    return () => {
      current = false;
    };
  }, [kind, token, trackingNumber, onDone]);

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
