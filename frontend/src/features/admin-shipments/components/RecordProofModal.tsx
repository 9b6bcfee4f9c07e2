import { useState, type FormEvent } from 'react';
import type { Shipment } from '@/gen/logistics/v1/shipment_pb';
import { FormErrors } from '@/components/ui/Field';
import { Modal, ModalCancelButton } from '@/components/ui/Modal';
import { SubmitButton } from '@/components/ui/SubmitButton';
import { toast } from '@/lib/toast';
import { useRecordProofOfDelivery } from '../api/shipments';
import { useProofOfDeliveryForm } from '../hooks/use-proof-of-delivery-form';
import { ProofOfDeliveryFields } from './ProofOfDeliveryFields';

const PROOF_SAVED_MESSAGE = 'Proof of delivery saved';

/** Record proof of delivery (or Replace it) for a delivered shipment, from its View dialog. */
export function RecordProofModal({
  shipment,
  onClose,
  onRecorded,
}: {
  shipment: Shipment;
  onClose: () => void;
  onRecorded: (shipment: Shipment) => void;
}) {
  const proof = useProofOfDeliveryForm({ idPrefix: 'record-pod', required: true });
  const [busy, setBusy] = useState(false);
  const recordProofOfDelivery = useRecordProofOfDelivery();
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const replacing = shipment.proofOfDelivery !== undefined;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setFormErrors([]);
    try {
      const input = await proof.prepare();
      if (!input) return;
      const updated = await recordProofOfDelivery({ id: shipment.id, input });
      toast.success(PROOF_SAVED_MESSAGE);
      onRecorded(updated);
    } catch (error) {
      setFormErrors(proof.showServerError(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      title={`${replacing ? 'Replace' : 'Record'} proof of delivery: ${shipment.trackingNumber}`}
      onClose={onClose}
      busy={busy}
      dirty={proof.dirty}
    >
      <form onSubmit={submit} noValidate>
        <FormErrors messages={formErrors} />
        {replacing && <p className="modal-intro">The proof recorded before is replaced by this one.</p>}
        <ProofOfDeliveryFields proof={proof} disabled={busy} />
        <div className="modal-footer proof-footer">
          <ModalCancelButton disabled={busy} />
          <SubmitButton busy={busy} busyLabel="Saving...">
            Save proof of delivery
          </SubmitButton>
        </div>
      </form>
    </Modal>
  );
}
