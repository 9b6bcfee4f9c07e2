import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Boxes, ClipboardList, History, Lock, PackageCheck, Printer, Send, ShieldCheck, Users } from 'lucide-react';
import {
  ShipmentStatus,
  ShipmentType,
  ShipmentView,
  type Date as ProtoDate,
  type Shipment,
  type TimeOfDay,
} from '@/gen/logistics/v1/shipment_pb';
import { company } from '@/config/company';
import { useMessages } from '@/lib/i18n';
import { EMPTY_VALUE, formatCents, formatDateParts, formatKg, formatTimeOfDay } from '@/utils/format';
import {
  displayWeightKg,
  historyNewestFirst,
  labelIdOf,
  MODE_OPTIONS,
  PAYMENT_OPTIONS,
  shipmentModeIcon,
  statusKey,
  TYPE_OPTIONS,
} from '../utils/shipment-display';
import { shipmentProgress } from '../utils/progress';
import { CopyTrackingNumberButton } from './CopyTrackingNumberButton';
import { ExpectedDelivery } from './ExpectedDelivery';
import { JourneyMapSection } from './JourneyMapSection';
import { JourneyProgress } from './JourneyProgress';
import { ProofOfDeliveryCard } from './ProofOfDeliveryCard';
import { ShareButton } from './ShareButton';
import { StatusAnnouncement } from './StatusAnnouncement';
import { SubscribeForm } from './SubscribeForm';
import { VERIFY_INPUT_ID, VerifyAccessForm } from './VerifyAccessForm';
import { HistoryTimeline } from '@/components/shipment/HistoryTimeline';
import { PackagesTable } from '@/components/shipment/PackagesTable';
import { PartyCard } from '@/components/shipment/PartyCard';
import { ShipmentModeIcon } from '@/components/shipment/ShipmentModeIcon';
import { StatusBadge } from '@/components/shipment/StatusBadge';
import { Ltr } from '@/components/ui/Bidi';
import { IconText } from '@/components/ui/IconText';
import { KeepWords } from '@/components/ui/KeepWords';

/** The newest history entries a printed result shows: with more, it would not fit one A4 page. */
const PRINTED_HISTORY = 6;

function formatDate(date: ProtoDate | undefined): string {
  return date ? formatDateParts(date.year, date.month, date.day) : EMPTY_VALUE;
}

function formatTime(time: TimeOfDay | undefined): string {
  return time ? formatTimeOfDay(time.hours, time.minutes) : EMPTY_VALUE;
}

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="detail-row">
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

type TrackingResultProps = {
  shipment: Shipment;
  /** Set when this is the copy kept offline: nothing can be asked of the server. */
  offline?: boolean;
  /** A party proved who they are: show this FULL view instead. */
  onFullView: (shipment: Shipment) => void;
  /** The `access` token of the e-mail link that opened this view (accepted), or "". */
  accessToken?: string;
};

/**
 * The tracking result: number, status, history, route, packages and parties. A public lookup answers the LIMITED
 * view (no address, phone, e-mail, packages or price; names as "Maria G."), with a form for a
 * party to see the FULL view; staff, a verified party and a link from the shipment's e-mails get
 * the FULL view at once. A server that predates the views (no `view`) answers FULL.
 */
export function TrackingResult({ shipment, offline = false, onFullView, accessToken = '' }: TrackingResultProps) {
  const t = useMessages('track');
  const limited = shipment.view === ShipmentView.LIMITED;
  const delivered = shipment.status === ShipmentStatus.DELIVERED;
  const weight = displayWeightKg(shipment);
  const modeIcon = shipmentModeIcon(shipment.mode);
  const steps = shipmentProgress(shipment);
  const places = historyNewestFirst(shipment.history)
    .reverse()
    .map((entry) => entry.location);
  const canVerify = limited && shipment.verificationAvailable && !offline;

  // A new result (after Track, or on a deep link) takes the focus and comes into view, on a phone
  // too; the html's scroll-padding keeps its heading clear of the sticky header.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus({ preventScroll: true });
    heading.current?.scrollIntoView({ block: 'start' });
  }, []);

  // After a party proves who they are, say so where the form was and move the focus there.
  const [justVerified, setJustVerified] = useState(false);
  const verifiedNotice = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (justVerified) verifiedNotice.current?.focus();
  }, [justVerified]);
  const subscribe = !offline && !delivered && <SubscribeForm trackingNumber={shipment.trackingNumber} />;
  const onVerified = (full: Shipment) => {
    setJustVerified(true);
    onFullView(full);
  };

  return (
    <div className="track-result">
      <StatusAnnouncement status={shipment.status} />
      {/* On paper the header is left out: the company is named here instead. */}
      <p className="print-brand">
        <strong>{company.name}</strong> <span dir="ltr">{company.supportEmail}</span>
      </p>
      <section className="card result-summary" aria-labelledby="result-heading">
        <div className="result-summary-top">
          <div>
            <p className="eyebrow">{t('track.result.tracking_number')}</p>
            <div className="tracking-number-line">
              <h2 id="result-heading" className="tracking-number" tabIndex={-1} ref={heading}>
                <Ltr>{shipment.trackingNumber}</Ltr>
              </h2>
              <CopyTrackingNumberButton trackingNumber={shipment.trackingNumber} />
            </div>
          </div>
          <div className="result-status">
            <span className="muted">{t('track.result.status')}</span>
            <StatusBadge statusKey={statusKey(shipment.status)} />
          </div>
        </div>
        <dl className="route-line">
          <div className="route-point">
            <dt>{t('track.result.origin')}</dt>
            <dd>{shipment.origin ? <bdi>{shipment.origin}</bdi> : EMPTY_VALUE}</dd>
          </div>
          <div className="route-point route-point-end">
            <dt>{t('track.result.destination')}</dt>
            <dd>{shipment.destination ? <bdi>{shipment.destination}</bdi> : EMPTY_VALUE}</dd>
          </div>
        </dl>
        <dl className="summary-facts">
          <Detail term={t('track.result.current_location')}>{shipment.currentLocation ? <bdi>{shipment.currentLocation}</bdi> : EMPTY_VALUE}</Detail>
          <Detail term={t('track.result.expected_delivery')}>
            <ExpectedDelivery date={shipment.expectedDeliveryDate} delivered={delivered} />
          </Detail>
        </dl>
        <div className="result-actions no-print">
          <ShareButton trackingNumber={shipment.trackingNumber} />
          <button type="button" className="btn btn-outline result-action" onClick={() => window.print()}>
            <Printer aria-hidden="true" size={16} />
            {t('track.result.print')}
          </button>
        </div>
        {canVerify && (
          <p className="limited-note no-print">
            <Lock aria-hidden="true" size={16} />
            <span>
              {t('track.result.hidden')}{' '}
              <button type="button" className="link-button" onClick={() => document.getElementById(VERIFY_INPUT_ID)?.focus()}>
                {t('track.verify.title')}
              </button>
            </span>
          </p>
        )}
      </section>

      <JourneyProgress steps={steps} />

      <div className="result-columns">
        <div className="result-stack">
          <section className="card" aria-labelledby="details-heading">
            <h2 id="details-heading" className="card-title">
              <ClipboardList aria-hidden="true" size={20} />
              {t('track.details.title')}
            </h2>
            <dl className="details-list">
              <Detail term={t('track.details.carrier')}>{shipment.carrier ? <bdi>{shipment.carrier}</bdi> : EMPTY_VALUE}</Detail>
              {(!limited || shipment.type !== ShipmentType.UNSPECIFIED) && (
                <Detail term={t('track.details.type')}>{t(labelIdOf(TYPE_OPTIONS, shipment.type))}</Detail>
              )}
              <Detail term={t('track.details.mode')}>
                <IconText icon={<ShipmentModeIcon kind={modeIcon} />} text={t(labelIdOf(MODE_OPTIONS, shipment.mode))} />
              </Detail>
              <Detail term={t('track.details.package_count')}>{shipment.packageCount}</Detail>
              <Detail term={t('track.details.total_weight')}><bdi>{formatKg(weight)}</bdi>
              </Detail>
              {!limited && (
                <>
                  {shipment.product && <Detail term={t('track.details.product')}><bdi>{shipment.product}</bdi></Detail>}
                  {shipment.productQuantity > 0 && <Detail term={t('track.details.product_quantity')}>{shipment.productQuantity}</Detail>}
                  <Detail term={t('track.details.payment_mode')}>{t(labelIdOf(PAYMENT_OPTIONS, shipment.paymentMode))}</Detail>
                  <Detail term={t('track.details.total_freight')}><bdi>{formatCents(shipment.totalFreightCents)}</bdi>
                  </Detail>
                  <Detail term={t('track.details.pickup_date')}><bdi>{formatDate(shipment.pickupDate)}</bdi>
                  </Detail>
                  <Detail term={t('track.details.pickup_time')}><bdi>{formatTime(shipment.pickupTime)}</bdi>
                  </Detail>
                  <Detail term={t('track.details.departure_time')}><bdi>{formatTime(shipment.departureTime)}</bdi>
                  </Detail>
                  {shipment.comments && <Detail term={t('track.details.comments')}><bdi>{shipment.comments}</bdi></Detail>}
                </>
              )}
            </dl>
          </section>

          <JourneyMapSection locations={places} destination={shipment.destination} />
        </div>

        <section className="card" aria-labelledby="history-heading">
          <h2 id="history-heading" className="card-title">
            <History aria-hidden="true" size={20} />
            {t('track.history.title')}
          </h2>
          <HistoryTimeline history={shipment.history} printLatest={PRINTED_HISTORY} />
        </section>
      </div>

      {limited ? (
        <div className="result-columns result-pair">
          <section className="card parties-limited" aria-labelledby="parties-heading">
            <h2 id="parties-heading" className="card-title">
              <Users aria-hidden="true" size={20} />
              {t('track.parties.title')}
            </h2>
            <dl className="details-list">
              <Detail term={t('track.party.shipper')}>{shipment.shipper?.name ? <bdi>{shipment.shipper.name}</bdi> : EMPTY_VALUE}</Detail>
              <Detail term={t('track.party.receiver')}>{shipment.receiver?.name ? <bdi>{shipment.receiver.name}</bdi> : EMPTY_VALUE}</Detail>
            </dl>
            {canVerify && (
              <div className="verify-block no-print">
                <h3 className="verify-title">
                  <ShieldCheck aria-hidden="true" size={18} />
                  {t('track.verify.title')}
                </h3>
                <p className="card-intro"><KeepWords text={t('track.verify.intro')} /></p>
                <VerifyAccessForm trackingNumber={shipment.trackingNumber} onVerified={onVerified} />
              </div>
            )}
          </section>
          {subscribe}
        </div>
      ) : (
        <>
          {justVerified && (
            <div ref={verifiedNotice} tabIndex={-1} className="alert alert-success no-print" role="status">
              <ShieldCheck aria-hidden="true" size={22} />
              <p>{t('track.verify.done')}</p>
            </div>
          )}
          {delivered && shipment.proofOfDelivery && !offline && (
            <ProofOfDeliveryCard
              trackingNumber={shipment.trackingNumber}
              proof={shipment.proofOfDelivery}
              accessToken={accessToken}
            />
          )}
          <section className="card" aria-labelledby="packages-heading">
            <h2 id="packages-heading" className="card-title">
              <Boxes aria-hidden="true" size={20} />
              {t('track.packages.title')}
            </h2>
            <PackagesTable packages={shipment.packages} totalWeightKg={weight} />
          </section>

          <div className="result-parties">
            <PartyCard
              title={t('track.party.shipper')}
              headingId="party-shipper"
              party={shipment.shipper}
              icon={<Send className="flip-rtl" aria-hidden="true" size={20} />}
            />
            <PartyCard
              title={t('track.party.receiver')}
              headingId="party-receiver"
              party={shipment.receiver}
              icon={<PackageCheck aria-hidden="true" size={20} />}
            />
          </div>
          {subscribe}
        </>
      )}
    </div>
  );
}
