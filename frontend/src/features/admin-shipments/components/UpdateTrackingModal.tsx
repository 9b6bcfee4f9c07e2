import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { Shipment, ShipmentStatus } from '@/gen/logistics/v1/shipment_pb';
import { Field, FormErrors } from '@/components/ui/Field';
import { fieldInputProps } from '@/components/ui/field-input-props';
import { Modal } from '@/components/ui/Modal';
import { SubmitButton } from '@/components/ui/SubmitButton';
import { serverMessage } from '@/lib/rpc-errors';
import { toast } from '@/lib/toast';
import { STATUS_OPTIONS } from '@/utils/shipment';
import { applyFieldErrors } from '../utils/server-errors';
import { updateTracking } from '../api/shipments';

type Values = { status: string; currentLocation: string; remarks: string };

const FIELDS: Record<string, keyof Values> = {
  status: 'status',
  current_location: 'currentLocation',
  remarks: 'remarks',
};

/** Update Status: the new status and location, with remarks, for whoever may move shipments
 * but not edit them (an agent). One history entry per save. */
export function UpdateTrackingModal({
  shipment,
  onClose,
  onUpdated,
}: {
  shipment: Shipment;
  onClose: () => void;
  onUpdated: (shipment: Shipment) => void;
}) {
  const form = useForm<Values>({
    defaultValues: { status: String(shipment.status), currentLocation: shipment.currentLocation, remarks: '' },
  });
  const { register, formState } = form;
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const err = (name: keyof Values) => formState.errors[name]?.message;

  const submit = form.handleSubmit(async (values) => {
    setFormErrors([]);
    try {
      const updated = await updateTracking({
        id: shipment.id,
        status: Number(values.status) as ShipmentStatus,
        currentLocation: values.currentLocation.trim(),
        remarks: values.remarks.trim(),
      });
      toast.success('Status updated');
      onUpdated(updated);
    } catch (error) {
      toast.error(serverMessage(error, 'Failed to update status'));
      setFormErrors(applyFieldErrors(form, error, FIELDS, 'Failed to update status'));
    }
  });

  return (
    <Modal title={`Update Status: ${shipment.trackingNumber}`} onClose={onClose} busy={formState.isSubmitting}>
      <form className="form-grid" onSubmit={submit} noValidate>
        <FormErrors messages={formErrors} />
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
        <Field id="track-remarks" label="Remarks" error={err('remarks')}>
          <textarea
            className="input"
            rows={3}
            maxLength={500}
            {...fieldInputProps('track-remarks', err('remarks'))}
            {...register('remarks')}
          />
        </Field>
        <div className="modal-footer">
          <button type="button" className="btn btn-outline" onClick={onClose} disabled={formState.isSubmitting}>
            Cancel
          </button>
          <SubmitButton busy={formState.isSubmitting} busyLabel="Saving...">
            Update Status
          </SubmitButton>
        </div>
      </form>
    </Modal>
  );
}
