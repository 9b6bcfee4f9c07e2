import { PenLine } from 'lucide-react';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { ProofOfDeliveryImageKind, type Shipment } from '@/gen/logistics/v1/shipment_pb';
import { ProofImage } from '@/components/shipment/ProofImage';
import { EMPTY_VALUE, formatDateTime } from '@/utils/format';
import { getProofOfDeliveryImage } from '../api/shipments';
import './proof-of-delivery.css';

/** The View dialog's Proof of delivery (a delivered shipment): who received it, when and by
 * whom it was recorded, the signature and the photo (fetched when they come into view), and
 * Record or Replace for whoever may record deliveries (`onRecord`). */
export function ProofOfDeliverySection({ shipment, onRecord }: { shipment: Shipment; onRecord?: () => void }) {
  const proof = shipment.proofOfDelivery;
  const { trackingNumber } = shipment;
  const loadKey = `${trackingNumber}:${proof?.recordTime?.seconds ?? ''}:${proof?.recordTime?.nanos ?? ''}`;

  return (
    <section aria-labelledby="view-proof" className="details-section proof-section">
      <h3 id="view-proof">Proof of delivery</h3>
      {proof ? (
        <>
          <p className="proof-received">
            Received by <strong>{proof.recipientName}</strong>
          </p>
          <dl className="details-list details-grid">
            <div className="detail-row">
              <dt>Recorded</dt>
              <dd>{formatDateTime(proof.recordTime ? timestampDate(proof.recordTime) : undefined)}</dd>
            </div>
            <div className="detail-row">
              <dt>Recorded by</dt>
              <dd>{proof.recordedBy || EMPTY_VALUE}</dd>
            </div>
          </dl>
          {proof.hasSignature || proof.hasPhoto ? (
            <div className="proof-images">
              {proof.hasSignature && (
                <ProofImage
                  kind="signature"
                  caption="Signature"
                  alt={`Signature of ${proof.recipientName}`}
                  loadKey={loadKey}
                  load={(signal) => getProofOfDeliveryImage(trackingNumber, ProofOfDeliveryImageKind.SIGNATURE, signal)}
                />
              )}
              {proof.hasPhoto && (
                <ProofImage
                  kind="photo"
                  caption="Photo"
                  alt="Photo of the delivery"
                  loadKey={loadKey}
                  load={(signal) => getProofOfDeliveryImage(trackingNumber, ProofOfDeliveryImageKind.PHOTO, signal)}
                />
              )}
            </div>
          ) : (
            <p className="muted">No signature or photo was recorded.</p>
          )}
        </>
      ) : (
        <p className="muted">No proof of delivery has been recorded.</p>
      )}
      {onRecord && (
        <button type="button" className="btn btn-outline btn-sm proof-record" onClick={onRecord}>
          <PenLine aria-hidden="true" size={16} />
          {proof ? 'Replace proof of delivery' : 'Record proof of delivery'}
        </button>
      )}
    </section>
  );
}
