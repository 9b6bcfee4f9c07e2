import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import { LogOut } from 'lucide-react';
import { useQuery } from '@connectrpc/connect-query';
import type { User } from '@/gen/logistics/v1/user_pb';
import { ShipmentService } from '@/gen/logistics/v1/shipment_service_pb';
import { LANGUAGES, type LanguageCode } from '@/config/languages';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { useCurrentLanguage, useMessages } from '@/lib/i18n';
import { rememberLanguageChoice } from '@/lib/language-choice';
import { useCourierStops } from '../api/courier';
import { useOutbox } from '../hooks/use-outbox';
import { OutboxStatus } from './OutboxStatus';
import { RoundStops } from './RoundStops';
import { ScanPanel } from './ScanPanel';
import { ShipmentScreen } from './ShipmentScreen';
import '../courier.css';

/** The courier app: today's round and the scanner, or one shipment (`?shipment=PSE…`, so the
 * phone's back button returns to the round). */
export function CourierApp({ user, onSignOut, signingOut }: { user: User; onSignOut: () => void; signingOut: boolean }) {
  const t = useMessages('courier');
  useDocumentTitle(t('courier.round_title'));
  useManifest();
  const language = useCurrentLanguage();
  const outbox = useOutbox();
  const stops = useCourierStops(user.email);
  const [params, setParams] = useSearchParams();
  const selected = params.get('shipment');
  const onRound = stops.data?.shipments.find((s) => s.trackingNumber === selected);
  // A shipment not on the round is read from the server when online.
  const lookup = useQuery(
    ShipmentService.method.getShipmentByTrackingNumber,
    { trackingNumber: selected ?? '' },
    { enabled: Boolean(selected) && !onRound && outbox.online, retry: false },
  );
  const today = new Intl.DateTimeFormat(LANGUAGES.find((l) => l.code === language)?.locale, { dateStyle: 'full' }).format(new Date());

  return (
    <div className="courier-app">
      <header className="courier-bar">
        <div className="courier-bar-title">
          <p className="courier-brand">{t('courier.title')}</p>
          <p className="courier-user">{user.email}</p>
        </div>
        <div className="courier-bar-tools">
          <label className="courier-language">
            <span className="visually-hidden">{t('courier.language')}</span>
            <select
              className="select"
              value={language}
              onChange={(event) => {
                rememberLanguageChoice(event.target.value as LanguageCode);
                window.location.reload();
              }}
            >
              {LANGUAGES.map((l) => (
                <option key={l.code} value={l.code} lang={l.code}>
                  {l.name}
                </option>
              ))}
            </select>
          </label>
          <button type="button" className="btn btn-outline btn-sm" onClick={onSignOut} disabled={signingOut}>
            <LogOut aria-hidden="true" size={16} className="flip-rtl" />
            {t('courier.sign_out')}
          </button>
        </div>
      </header>
      <main id="main-content" className="courier-main" tabIndex={-1}>
        <h1>{t('courier.round_title')}</h1>
        <p className="muted">{today}</p>
        <OutboxStatus outbox={outbox} />
        {outbox.signedOut && (
          <p className="courier-warning" role="alert">
            {t('courier.signed_out')}{' '}
            <button type="button" className="btn btn-primary btn-sm" onClick={onSignOut}>
              {t('courier.sign_in')}
            </button>
          </p>
        )}
        {selected ? (
          <ShipmentScreen
            key={selected}
            trackingNumber={selected}
            shipment={onRound ?? lookup.data}
            online={outbox.online}
            onBack={() => setParams({}, { replace: false })}
          />
        ) : (
          <>
            <ScanPanel onFound={(number) => setParams({ shipment: number })} />
            <RoundStops
              pickups={stops.data?.pickups ?? []}
              shipments={stops.data?.shipments ?? []}
              loading={stops.isPending}
              failed={stops.isError && !stops.data}
              onOpen={(number) => setParams({ shipment: number })}
            />
          </>
        )}
      </main>
    </div>
  );
}

/** The web app manifest, so the courier can install the app on the phone's home screen. */
function useManifest() {
  useEffect(() => {
    const link = document.createElement('link');
    link.rel = 'manifest';
    link.href = '/courier.webmanifest';
    document.head.append(link);
    return () => link.remove();
  }, []);
}
