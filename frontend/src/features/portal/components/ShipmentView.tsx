import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import { Code, ConnectError } from '@connectrpc/connect';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { ArrowLeft, Boxes, ClipboardList, FileText, History, PackageCheck, PenLine, Printer, Send } from 'lucide-react';
import { ProofOfDeliveryImageKind, type ProofOfDelivery, type Shipment } from '@/gen/logistics/v1/shipment_pb';
import { HistoryTimeline } from '@/components/shipment/HistoryTimeline';
import { PackagesTable } from '@/components/shipment/PackagesTable';
import { PartyCard } from '@/components/shipment/PartyCard';
import { ProofImages } from '@/components/shipment/ProofImage';
import { StatusBadge } from '@/components/shipment/StatusBadge';
import { ErrorAlert } from '@/components/ui/ErrorAlert';
import { Spinner } from '@/components/ui/Spinner';
import { company } from '@/config/company';
import { PORTAL_HOME_PATH, labelsPath } from '@/config/routes';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { useCurrentLanguage, useMessages } from '@/lib/i18n';
import { serverMessage } from '@/lib/rpc-errors';
import { Trans } from '@/lib/trans';
import { EMPTY_VALUE, formatCents, formatDateParts, formatDateTime, formatTimeOfDay } from '@/utils/format';
import { MODE_OPTIONS, PAYMENT_OPTIONS, TYPE_OPTIONS, labelIdOf, statusKey, totalWeightKg } from '@/utils/shipment';
import { getPortalProofImage, usePortalShipment } from '../api/portal';
import { PickupLink } from './PickupLink';

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="detail-row">
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** /portal/shipments/:id: one of the customer's shipments in full; another customer's, or a
 * missing one, is "not found" alike. */
export function ShipmentView() {
  const { id = '' } = useParams();
  const t = useMessages('portal');
  const shipment = usePortalShipment(id);
  useDocumentTitle(shipment.data?.trackingNumber ?? t('portal.shipment.title'));

  if (shipment.isPending) return <Spinner size="md" label={t('portal.shipment.loading')} />;
  if (shipment.error) {
    const notFound = ConnectError.from(shipment.error).code === Code.NotFound;
    return (
      <div className="portal-page">
        <h1>{notFound ? t('portal.shipment.not_found') : t('portal.shipment.title')}</h1>
        {notFound ? (
          <p data-testid="portal-not-found">{t('portal.shipment.not_found_intro')}</p>
        ) : (
          <ErrorAlert message={serverMessage(shipment.error, t('portal.shipment.load_failed'))} />
        )}
        <BackLink />
      </div>
    );
  }
  return <ShipmentDetails shipment={shipment.data} />;
}

function BackLink() {
  const t = useMessages('portal');
  return (
    <p>
      <Link to={PORTAL_HOME_PATH} className="portal-back">
        <ArrowLeft aria-hidden="true" size={16} className="flip-rtl" />
        {t('portal.shipment.back')}
      </Link>
    </p>
  );
}

function ShipmentDetails({ shipment }: { shipment: Shipment }) {
  const t = useMessages('portal');
  const tTrack = useMessages('track');
  const language = useCurrentLanguage();
  const pickupDate = shipment.pickupDate
    ? formatDateParts(shipment.pickupDate.year, shipment.pickupDate.month, shipment.pickupDate.day)
    : EMPTY_VALUE;
  const pickupTime = shipment.pickupTime ? formatTimeOfDay(shipment.pickupTime.hours, shipment.pickupTime.minutes) : EMPTY_VALUE;
  const proof = shipment.proofOfDelivery;
  return (
    <div className="portal-page portal-shipment">
      <BackLink />
      <div className="portal-page-head">
        <div>
          <p className="muted portal-eyebrow">{t('portal.shipment.title')}</p>
          <h1 className="mono" data-testid="portal-tracking-number">
            {shipment.trackingNumber}
          </h1>
        </div>
        <div className="portal-actions">
          <Link to={labelsPath([shipment.id], 'label', 'portal')} className="btn btn-primary">
            <Printer aria-hidden="true" size={18} />
            {t('portal.shipment.print_label')}
          </Link>
          <Link to={labelsPath([shipment.id], 'waybill', 'portal')} className="btn btn-outline">
            <FileText aria-hidden="true" size={18} />
            {t('portal.shipment.print_waybill')}
          </Link>
          <PickupLink shipment={shipment} />
        </div>
      </div>

      <section className="card portal-status" aria-labelledby="portal-status-heading">
        <h2 id="portal-status-heading" className="card-title">
          {t('portal.shipment.status')}
        </h2>
        <p className="portal-status-line">
          <StatusBadge statusKey={statusKey(shipment.status)} />
          {shipment.currentLocation && <bdi>{shipment.currentLocation}</bdi>}
        </p>
        <p className="portal-route">
          <bdi>{shipment.origin}</bdi> → <bdi>{shipment.destination}</bdi>
        </p>
      </section>

      {proof && <ProofCard trackingNumber={shipment.trackingNumber} proof={proof} />}

      <div className="portal-columns">
        <section className="card" aria-labelledby="portal-details-heading">
          <h2 id="portal-details-heading" className="card-title">
            <ClipboardList aria-hidden="true" size={20} />
            {tTrack('track.details.title')}
          </h2>
          <dl className="details-list">
            <Detail term={tTrack('track.details.type')}>{tTrack(labelIdOf(TYPE_OPTIONS, shipment.type))}</Detail>
            <Detail term={tTrack('track.details.mode')}>{tTrack(labelIdOf(MODE_OPTIONS, shipment.mode))}</Detail>
            <Detail term={tTrack('track.details.payment_mode')}>{tTrack(labelIdOf(PAYMENT_OPTIONS, shipment.paymentMode))}</Detail>
            <Detail term={tTrack('track.details.package_count')}>{shipment.packageCount}</Detail>
            {/* Known at booking when it was booked from a quote (its price); else staff set it. */}
            {shipment.totalFreightCents > 0n && (
              <Detail term={tTrack('track.details.total_freight')}>
                <bdi>{formatCents(shipment.totalFreightCents, company.currency)}</bdi>
              </Detail>
            )}
            <Detail term={tTrack('track.details.pickup_date')}>
              <bdi>{pickupDate}</bdi>
            </Detail>
            <Detail term={tTrack('track.details.pickup_time')}>
              <bdi>{pickupTime}</bdi>
            </Detail>
            <Detail term={t('portal.shipment.created')}>
              <bdi>{formatDateTime(shipment.createTime ? timestampDate(shipment.createTime) : undefined, language)}</bdi>
            </Detail>
            {shipment.comments && (
              <Detail term={tTrack('track.details.comments')}>
                <bdi>{shipment.comments}</bdi>
              </Detail>
            )}
          </dl>
        </section>

        <section className="card" aria-labelledby="portal-history-heading">
          <h2 id="portal-history-heading" className="card-title">
            <History aria-hidden="true" size={20} />
            {tTrack('track.history.title')}
          </h2>
          <HistoryTimeline history={shipment.history} />
        </section>
      </div>

      <div className="portal-columns">
        <PartyCard
          title={tTrack('track.party.shipper')}
          headingId="party-shipper"
          party={shipment.shipper}
          icon={<Send className="flip-rtl" aria-hidden="true" size={20} />}
        />
        <PartyCard
          title={tTrack('track.party.receiver')}
          headingId="party-receiver"
          party={shipment.receiver}
          icon={<PackageCheck aria-hidden="true" size={20} />}
        />
      </div>

      <section className="card" aria-labelledby="portal-packages-heading">
        <h2 id="portal-packages-heading" className="card-title">
          <Boxes aria-hidden="true" size={20} />
          {tTrack('track.packages.title')}
        </h2>
        <PackagesTable packages={shipment.packages} totalWeightKg={totalWeightKg(shipment.packages)} />
      </section>
    </div>
  );
}

/** Who received the shipment, when, and the signature and photo (fetched as they come into view). */
function ProofCard({ trackingNumber, proof }: { trackingNumber: string; proof: ProofOfDelivery }) {
  const tTrack = useMessages('track');
  const language = useCurrentLanguage();
  const received = proof.recordTime ? timestampDate(proof.recordTime) : undefined;
  // A proof recorded again comes with another time, so its images load again.
  const loadKey = `portal:${trackingNumber}:${proof.recordTime?.seconds ?? ''}`;
  const load = (kind: ProofOfDeliveryImageKind) => (signal: AbortSignal) => getPortalProofImage(trackingNumber, kind, signal);
  return (
    <section className="card" aria-labelledby="portal-proof-heading" data-testid="portal-proof">
      <h2 id="portal-proof-heading" className="card-title">
        <PenLine aria-hidden="true" size={20} />
        {tTrack('track.proof.title')}
      </h2>
      <p>
        {received ? (
          <Trans
            id="track.proof.received_on"
            values={{ name: <>{proof.recipientName}</>, date: formatDateTime(received, language) }}
            components={{ b: <strong /> }}
          />
        ) : (
          <Trans id="track.proof.received" values={{ name: <>{proof.recipientName}</> }} components={{ b: <strong /> }} />
        )}
      </p>
      <ProofImages proof={proof} loadKey={loadKey} load={load} />
    </section>
  );
}
