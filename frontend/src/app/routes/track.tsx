import { lazy, Suspense, useCallback, useEffect } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { AlertCircle, WifiOff } from 'lucide-react';
import { ErrorAlert } from '@/components/ui/ErrorAlert';
import { PageHero } from '@/components/ui/PageHero';
import { Spinner } from '@/components/ui/Spinner';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { useLanguage } from '@/hooks/use-language';
import { useMessages } from '@/lib/i18n';
import { toast } from '@/lib/toast';
import { formatDateTime, normaliseTrackingNumber } from '@/utils/format';
import { TrackIntro } from '@/features/tracking/components/TrackIntro';
import { TrackSearchForm } from '@/features/tracking/components/TrackSearchForm';
import { useLinkTokens } from '@/features/tracking/hooks/use-link-tokens';
import type { TrackLookup as Lookup } from '@/features/tracking/hooks/use-track-shipment';
import '@/features/tracking/components/tracking.css';

// The lookup (TanStack Query and the Connect client) loads with the first number looked up.
const TrackLookup = lazy(() => import('./track-lookup'));

// The result's code (and the protobuf code it needs) loads with the first result.
const TrackingResult = lazy(() =>
  import('@/features/tracking/components/TrackingResult').then((module) => ({ default: module.TrackingResult })),
);

// A confirmation or unsubscribe link's code loads only when the address carries one.
const SubscriptionLinkOutcome = lazy(() =>
  import('@/features/tracking/components/SubscriptionLinkOutcome').catch(() => ({
    default: function LinkCodeMissing() {
      const t = useMessages('track');
      return <ErrorAlert message={t('track.link.not_loaded')} />;
    },
  })),
);

const IDLE: Lookup = { state: { status: 'idle' }, retry: () => undefined, showShipment: () => undefined };

/** /track and /track/:trackingNumber: the search box, then the intro or the result. The links
 * of the shipment's e-mails land here too: `?access=` (the FULL view), `?confirm=` and
 * `?unsubscribe=` (subscriptions); each token is taken out of the address once used. */
export default function TrackPage() {
  const { trackingNumber: param } = useParams();
  const trackingNumber = param ? normaliseTrackingNumber(param) : '';
  const tokens = useLinkTokens(trackingNumber);
  const body = (lookup: Lookup) => (
    <TrackBody
      trackingNumber={trackingNumber}
      tokens={tokens}
      lookup={lookup}
    />
  );
  if (!trackingNumber) return body(IDLE);
  const loading: Lookup = { ...IDLE, state: { status: 'loading', trackingNumber } };
  return (
    <Suspense fallback={body(loading)}>
      <TrackLookup trackingNumber={trackingNumber} accessToken={tokens.access}>
        {body}
      </TrackLookup>
    </Suspense>
  );
}

type TrackBodyProps = {
  trackingNumber: string;
  tokens: ReturnType<typeof useLinkTokens>;
  lookup: Lookup;
};

function TrackBody({ trackingNumber, tokens, lookup }: TrackBodyProps) {
  const t = useMessages('track');
  const { path } = useLanguage();
  const navigate = useNavigate();
  const { state, retry, showShipment } = lookup;
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

  useDocumentTitle(trackingNumber ? t('track.title_number', { trackingNumber }) : t('track.title'));

  const onSearch = (raw: string) => {
    // Normalised, a number is never only dots (which a URL path cannot carry).
    const value = normaliseTrackingNumber(raw);
    if (!value) {
      toast.error(t('track.error.empty'), { toastId: 'tracking-number-empty' });
      return;
    }
    if (value === trackingNumber) {
      retry();
    } else {
      // A search keeps the page's language (the prefix of a link from a Spanish e-mail).
      navigate(path(`/track/${encodeURIComponent(value)}`));
    }
  };

  const loading = state.status === 'loading';
  const errorMessage = state.status === 'error' ? state.message : null;

  return (
    <>
      <PageHero eyebrow={t('track.hero.eyebrow')} title={t('track.hero.title')} intro={t('track.hero.intro')}>
        <TrackSearchForm key={trackingNumber} action={path('/track')} initialValue={trackingNumber} loading={loading} onSearch={onSearch} />
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
        {loading && (
          <div className="track-loading">
            <Spinner size="lg" label={t('track.loading')} />
            <p aria-hidden="true">{t('track.loading')}</p>
          </div>
        )}
        {errorMessage && (
          <div className="alert alert-error" role="alert" data-testid="track-error">
            <AlertCircle aria-hidden="true" size={22} />
            <p>{errorMessage}</p>
          </div>
        )}
        {state.status === 'success' && state.notice && (
          <div className="alert alert-error link-notice" role="alert" data-testid="track-link-refused">
            <AlertCircle aria-hidden="true" size={22} />
            <p>{state.notice}</p>
          </div>
        )}
        {state.status === 'success' && state.savedAt && (
          <div className="alert alert-info" role="status" data-testid="track-offline">
            <WifiOff aria-hidden="true" size={22} />
            <p>{t('track.offline', { date: formatDateTime(new Date(state.savedAt)) })}</p>
          </div>
        )}
        {state.status === 'success' && (
          <Suspense fallback={<Spinner size="lg" label={t('track.loading')} />}>
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
