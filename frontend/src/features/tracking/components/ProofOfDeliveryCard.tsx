import { PenLine } from 'lucide-react';
import { Trans } from '@/lib/trans';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { ProofOfDeliveryImageKind, type ProofOfDelivery } from '@/gen/logistics/v1/shipment_pb';
import { ProofImages } from '@/components/shipment/ProofImage';
import { useMessages } from '@/lib/i18n';
import { formatDateTime } from '@/utils/format';
import { getProofOfDeliveryImage } from '../api/proof-of-delivery';

type ProofOfDeliveryCardProps = {
  trackingNumber: string;
  proof: ProofOfDelivery;
  /** The `access` token of the e-mail link that opened the FULL view, or "" (a verified party's
   * cookie travels with the call). */
  accessToken: string;
};

/** Who received the shipment, when, their signature and a photo (the FULL view of a delivered
 * shipment only; the images are fetched when they come into view). */
export function ProofOfDeliveryCard({ trackingNumber, proof, accessToken }: ProofOfDeliveryCardProps) {
  const t = useMessages('track');
  // An element, not a string: Trans would read tags in a string value.
  const name = <>{proof.recipientName}</>;
  const recorded = proof.recordTime ? timestampDate(proof.recordTime) : undefined;
  const loadKey = `${trackingNumber}:${proof.recordTime?.seconds ?? ''}:${accessToken}`;
  const load = (kind: ProofOfDeliveryImageKind) => (signal: AbortSignal) =>
    getProofOfDeliveryImage(trackingNumber, kind, accessToken, signal);
  return (
    <section className="card proof-card" aria-labelledby="proof-heading">
      <h2 id="proof-heading" className="card-title">
        <PenLine aria-hidden="true" size={20} />
        {t('track.proof.title')}
      </h2>
      <p className="proof-received">
        {recorded ? (
          <Trans
            id="track.proof.received_on"
            values={{ name, date: formatDateTime(recorded) }}
            components={{ b: <strong /> }}
          />
        ) : (
          <Trans id="track.proof.received" values={{ name }} components={{ b: <strong /> }} />
        )}
      </p>
      <ProofImages proof={proof} loadKey={loadKey} load={load} />
    </section>
  );
}
