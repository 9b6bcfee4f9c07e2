import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router-dom';
import { AlertCircle, WifiOff } from 'lucide-react';
import { ErrorAlert } from '@/components/ui/ErrorAlert';
import { PageHero } from '@/components/ui/PageHero';
import { languageOfPath } from '@/config/languages';
import { Spinner } from '@/components/ui/Spinner';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { toast } from '@/lib/toast';
import { trimTrackingNumber } from '@/utils/format';
import { TrackIntro } from '@/features/tracking/components/TrackIntro';
import { TrackSearchForm } from '@/features/tracking/components/TrackSearchForm';
import { useLinkTokens } from '@/features/tracking/hooks/use-link-tokens';
import { useTrackShipment } from '@/features/tracking/hooks/use-track-shipment';
import { EMPTY_INPUT_MESSAGE, NOT_FOUND_MESSAGE } from '@/features/tracking/utils/messages';
import '@/features/tracking/components/tracking.css';

// The result's code (and the protobuf code it needs) loads with the first result.
const TrackingResult = lazy(() =>
  import('@/features/tracking/components/TrackingResult').then((module) => ({ default: module.TrackingResult })),
);

// A confirmation or unsubscribe link's code loads only when the address carries one.
const SubscriptionLinkOutcome = lazy(() =>
  import('@/features/tracking/components/SubscriptionLinkOutcome').catch(() => ({
    default: function LinkCodeMissing() {
      return (
        <ErrorAlert message="This link could not be opened. Please check your connection and open it again." />
      );
    },
  })),
);

/** A value that a URL path cannot carry ("." and ".." are removed by the browser). */
function isDotSegment(value: string): boolean {
  return /^\.+$/.test(value);
}

/** /track and /track/:trackingNumber: the search box, then the intro or the result. The links
 * of the shipment's e-mails land here too: `?access=` (the FULL view), `?confirm=` and
 * `?unsubscribe=` (subscriptions); each token is taken out of the address once used. */
export default function TrackPage() {
  const { trackingNumber: param } = useParams();
  const trackingNumber = param ? trimTrackingNumber(param) : '';
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const tokens = useLinkTokens(trackingNumber);
  const { state, retry, showShipment } = useTrackShipment(trackingNumber || undefined, tokens.access);
  const subscriptionLink = tokens.confirm
    ? ({ kind: 'confirm', token: tokens.confirm } as const)
    : tokens.unsubscribe
      ? ({ kind: 'unsubscribe', token: tokens.unsubscribe } as const)
      : null;

  // Once used, a token leaves the address bar, so a shared or bookmarked address carries none.
  const lookupDone = state.status === 'success' || state.status === 'error';
  const { drop } = tokens;
  useEffect(() => {
    if (lookupDone) drop(['access']);
  }, [lookupDone, drop]);
  const onLinkFollowed = useCallback((kind: 'confirm' | 'unsubscribe') => drop([kind]), [drop]);
  // A failure found without asking the server, shown until the next search.
  const [localError, setLocalError] = useState<{ forNumber: string } | null>(null);
  const shownLocalError = localError && localError.forNumber === trackingNumber ? localError : null;

  useDocumentTitle(trackingNumber ? `Tracking ${trackingNumber}` : 'Track Package');

  const onSearch = (raw: string) => {
    const value = trimTrackingNumber(raw);
    if (!value) {
      toast.error(EMPTY_INPUT_MESSAGE, { toastId: 'tracking-number-empty' });
      return;
    }
    if (isDotSegment(value)) {
      setLocalError({ forNumber: trackingNumber });
      toast.error(NOT_FOUND_MESSAGE, { toastId: 'tracking-not-found-local' });
      return;
    }
    setLocalError(null);
    if (value === trackingNumber) {
      retry();
    } else {
      // A search keeps the page's language (the prefix of a link from a Spanish e-mail).
      const language = languageOfPath(pathname);
      navigate(`${language === 'en' ? '' : `/${language}`}/track/${encodeURIComponent(value)}`);
    }
  };

  const loading = state.status === 'loading';
  const errorMessage = shownLocalError ? NOT_FOUND_MESSAGE : state.status === 'error' ? state.message : null;

  return (
    <>
      <PageHero
        eyebrow="Track Package"
        title="Track Your Shipment"
        intro="Enter your tracking number to see where your package is, its full journey and when it will arrive."
      >
        <TrackSearchForm key={trackingNumber} initialValue={trackingNumber} loading={loading} onSearch={onSearch} />
      </PageHero>

      <div className="container track-outcome" aria-live="polite">
        {subscriptionLink && (
          <Suspense fallback={null}>
            <SubscriptionLinkOutcome
              key={`${subscriptionLink.kind}:${subscriptionLink.token}`}
              link={subscriptionLink}
              trackingNumber={trackingNumber}
              onDone={onLinkFollowed}
            />
          </Suspense>
        )}
        {loading && !shownLocalError && (
          <div className="track-loading">
            <Spinner size="lg" label="Looking up your shipment…" />
            <p aria-hidden="true">Looking up your shipment…</p>
          </div>
        )}
        {errorMessage && (
          <div className="alert alert-error" role="alert" data-testid="track-error">
            <AlertCircle aria-hidden="true" size={22} />
            <p>{errorMessage}</p>
          </div>
        )}
        {state.status === 'success' && !shownLocalError && state.notice && (
          <div className="alert alert-error link-notice" role="alert" data-testid="track-link-refused">
            <AlertCircle aria-hidden="true" size={22} />
            <p>{state.notice}</p>
          </div>
        )}
        {state.status === 'success' && !shownLocalError && state.savedAt && (
          <div className="alert alert-info" role="status" data-testid="track-offline">
            <WifiOff aria-hidden="true" size={22} />
            <p>
              You are offline. This is the result saved on{' '}
              {new Date(state.savedAt).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' })}.
            </p>
          </div>
        )}
        {state.status === 'success' && !shownLocalError && (
          <Suspense fallback={<Spinner size="lg" label="Looking up your shipment…" />}>
            <TrackingResult
              key={state.trackingNumber}
              shipment={state.shipment}
              offline={state.savedAt !== undefined}
              onFullView={showShipment}
              accessToken={state.notice ? '' : tokens.access}
            />
          </Suspense>
        )}
      </div>

      {(state.status === 'idle' || errorMessage) && <TrackIntro />}
    </>
  );
}
