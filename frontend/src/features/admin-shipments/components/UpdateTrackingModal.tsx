import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { AlertCircle } from 'lucide-react';
import { DeliveryAttemptFailure, ShipmentStatus, type Shipment } from '@/gen/logistics/v1/shipment_pb';
import { Field, FormErrors } from '@/components/ui/Field';
import { fieldInputProps } from '@/components/ui/field-input-props';
import { Modal, ModalCancelButton } from '@/components/ui/Modal';
import { SubmitButton } from '@/components/ui/SubmitButton';
import { serverMessage } from '@/lib/rpc-errors';
import { toast } from '@/lib/toast';
import { STATUS_OPTIONS, statusLabel } from '@/utils/shipment';
import { applyFieldErrors } from '../utils/server-errors';
import { FAILED_ATTEMPT_OPTIONS } from '../utils/failed-attempt';
import { useRecordProofOfDelivery, useUpdateTracking, type ProofOfDeliveryInput } from '../api/shipments';
import { useProofOfDeliveryForm } from '../hooks/use-proof-of-delivery-form';
import { ProofOfDeliveryFields } from './ProofOfDeliveryFields';

type Values = { status: string; currentLocation: string; failedAttempt: string; remarks: string };

const FIELDS: Record<string, keyof Values> = {
  status: 'status',
  current_location: 'currentLocation',
  remarks: 'remarks',
  failed_attempt: 'failedAttempt',
};


const PROOF_NOT_SAVED = 'The status was updated, but the proof of delivery was not saved.';

/** Update Status: the new status and location, with remarks and a failed delivery attempt's
 * reason, for whoever may move shipments but not edit them (an agent). One history entry per
 * save. Marking it Delivered, whoever may
 * record deliveries (`canRecordProof`) can add the proof of delivery, saved right after the
 * status; should that second step fail, the status stays changed and the dialog offers to
 * save the proof again. */
export function UpdateTrackingModal({
  shipment,
  onClose,
  onUpdated,
  canRecordProof = false,
}: {
  shipment: Shipment;
  onClose: () => void;
  onUpdated: (shipment: Shipment) => void;
  canRecordProof?: boolean;
}) {
  const form = useForm<Values>({
    defaultValues: {
      status: String(shipment.status),
      currentLocation: shipment.currentLocation,
      failedAttempt: String(DeliveryAttemptFailure.UNSPECIFIED),
      remarks: '',
    },
  });
  const { register, formState } = form;
  const updateTracking = useUpdateTracking();
  const recordProofOfDelivery = useRecordProofOfDelivery();
  const [formErrors, setFormErrors] = useState<string[]>([]);
  // Not public by default: a remark reaches the parties and staff only unless ticked.
  const [remarksPublic, setRemarksPublic] = useState(false);
  const err = (name: keyof Values) => formState.errors[name]?.message;
  const proof = useProofOfDeliveryForm({ idPrefix: 'track-pod', required: false });
  // The status change that went through while its proof of delivery did not.
  const [statusSaved, setStatusSaved] = useState<Shipment | null>(null);
  const [proofFailure, setProofFailure] = useState<string[] | null>(null);
  const [preparing, setPreparing] = useState(false);
  const busy = formState.isSubmitting || preparing;
  const delivered = Number(useWatch({ control: form.control, name: 'status' })) === ShipmentStatus.DELIVERED;
  const showProof = canRecordProof && (delivered || statusSaved !== null);

  // Once the status is saved, closing the dialog still reports it (the list reloads).
  const close = () => (statusSaved ? onUpdated(statusSaved) : onClose());

  const saveProof = async (updated: Shipment, input: ProofOfDeliveryInput) => {
    try {
      const withProof = await recordProofOfDelivery({ id: shipment.id, input });
      toast.success('Proof of delivery saved');
      onUpdated(withProof);
    } catch (error) {
      setStatusSaved(updated);
      setProofFailure(proof.showServerError(error));
      toast.error('Proof of delivery not saved');
    }
  };

  const submit = form.handleSubmit(async (values) => {
    setFormErrors([]);
    setProofFailure(null);
    let input = null;
    if (showProof) {
      setPreparing(true);
      try {
        const prepared = await proof.prepare();
        if (prepared === false) return;
        input = prepared;
      } catch (error) {
        setFormErrors([error instanceof Error ? error.message : String(error)]);
        return;
      } finally {
        setPreparing(false);
      }
    }
    let updated = statusSaved;
    if (!updated) {
      try {
        updated = await updateTracking({
          id: shipment.id,
          status: Number(values.status) as ShipmentStatus,
          currentLocation: values.currentLocation.trim(),
          remarks: values.remarks.trim(),
          remarksPublic,
          failedAttempt: Number(values.failedAttempt) as DeliveryAttemptFailure,
        });
        toast.success('Status updated');
      } catch (error) {
        toast.error(serverMessage(error, 'Failed to update status'));
        setFormErrors(applyFieldErrors(form, error, FIELDS, 'Failed to update status'));
        return;
      }
    }
    if (input) await saveProof(updated, input);
    else onUpdated(updated);
  });

  return (
    <Modal
      title={`Update Status: ${shipment.trackingNumber}`}
      onClose={close}
      busy={busy}
      dirty={(!statusSaved && (formState.isDirty || remarksPublic)) || (showProof && proof.dirty)}
    >
      <form className="form-grid" onSubmit={submit} noValidate>
        <FormErrors messages={formErrors} />
        {proofFailure && (
          <div className="alert alert-error form-errors field-wide" role="alert">
            <AlertCircle aria-hidden="true" size={22} />
            <div>
              <p>{PROOF_NOT_SAVED}</p>
              {proofFailure.map((message, index) => (
                <p key={index} className="alert-detail">
                  {message}
                </p>
              ))}
              <p className="alert-detail">Correct it and save the proof again, or close to leave it for now.</p>
            </div>
          </div>
        )}
        {statusSaved ? (
          <p className="modal-intro field-wide">
            Status updated to {statusLabel(statusSaved.status)}
            {statusSaved.currentLocation && <> at {statusSaved.currentLocation}</>}.
          </p>
        ) : (
          <>
            <Field id="track-status" label="Status" error={err('status')}>
              <select className="select" {...fieldInputProps('track-status', err('status'))} {...register('status')}>
                {STATUS_OPTIONS.map((option) => (
                  <option key={option.key} value={String(option.value)}>
                    {option.label}
                  </option>
                ))}
              </select>
            </Field>
            <Field id="track-location" label="Current Location" error={err('currentLocation')}>
              <input
                className="input"
                required
                maxLength={200}
                {...fieldInputProps('track-location', err('currentLocation'))}
                {...register('currentLocation', { required: 'Current location is required' })}
              />
            </Field>
            <Field id="track-failed-attempt" label="Delivery attempt" error={err('failedAttempt')}>
              <select
                className="select"
                {...fieldInputProps('track-failed-attempt', err('failedAttempt'))}
                {...register('failedAttempt')}
              >
                {FAILED_ATTEMPT_OPTIONS.map((option) => (
                  <option key={option.value} value={String(option.value)}>
                    {option.label}
                  </option>
                ))}
              </select>
            </Field>
            <Field id="track-remarks" label="Remarks" error={err('remarks')}>
              <textarea
                className="input"
                rows={3}
                maxLength={500}
                {...fieldInputProps('track-remarks', err('remarks'))}
                {...register('remarks')}
              />
            </Field>
            <label className="checkbox-row field-wide">
              <input type="checkbox" checked={remarksPublic} onChange={(event) => setRemarksPublic(event.target.checked)} />
              Public remark: anyone with the tracking number may read it (otherwise only the shipper,
              the receiver and staff)
            </label>
          </>
        )}
        {showProof && (
          <ProofOfDeliveryFields
            proof={proof}
            disabled={busy}
            intro={
              statusSaved ? undefined : 'Optional. Nothing is recorded without the name of the person who received it.'
            }
          />
        )}
        <div className="modal-footer field-wide proof-footer">
          <ModalCancelButton disabled={busy}>{statusSaved ? 'Close' : 'Cancel'}</ModalCancelButton>
          <SubmitButton busy={busy} busyLabel="Saving...">
            {statusSaved ? 'Save proof of delivery' : 'Update Status'}
          </SubmitButton>
        </div>
      </form>
    </Modal>
  );
}
