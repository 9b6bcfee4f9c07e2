import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { Shipment } from '@/gen/logistics/v1/shipment_pb';
import { toast } from '@/lib/toast';
import { useUpdateShipment } from '../api/shipments';
import { applyServerErrors } from '../utils/server-errors';
import { buildShipmentUpdate, shipmentToFormValues, type ShipmentFormValues } from '../utils/shipment-form';
import { ShipmentFormModal } from './ShipmentFormModal';

const UPDATE_SUCCESS_MESSAGE = 'Shipment updated successfully';
const UPDATE_FAILURE_MESSAGE = 'Failed to update shipment';
const NO_CHANGES_MESSAGE = 'No changes to save.';
const UPDATE_SERVICE_MESSAGE = 'Unable to update shipment. Please check your connection and try again.';

type EditShipmentModalProps = {
  shipment: Shipment;
  onClose: () => void;
  onUpdated: (shipment: Shipment) => void;
  /** The user reads customers (the Customer input). */
  customers: boolean;
};

/** Edit Shipment Details: status, location, remarks and every other field, pre-filled. Update
 * sends only the changed fields; an emptied Comments clears them. */
export function EditShipmentModal({ shipment, onClose, onUpdated, customers }: EditShipmentModalProps) {
  const form = useForm<ShipmentFormValues>({ defaultValues: shipmentToFormValues(shipment) });
  const updateShipment = useUpdateShipment();
  const [formErrors, setFormErrors] = useState<string[]>([]);

  const cancel = () => {
    form.reset(shipmentToFormValues(shipment));
    setFormErrors([]);
    onClose();
  };

  const submit = form.handleSubmit(async (values) => {
    setFormErrors([]);
    const update = buildShipmentUpdate(shipment, values);
    if (update.paths.length === 0) {
      toast.info(NO_CHANGES_MESSAGE);
      onClose();
      return;
    }
    try {
      const updated = await updateShipment(update);
      toast.success(UPDATE_SUCCESS_MESSAGE);
      onUpdated(updated);
    } catch (error) {
      toast.error(UPDATE_FAILURE_MESSAGE);
      setFormErrors(applyServerErrors(form, error, UPDATE_SERVICE_MESSAGE));
    }
  });

  return (
    <ShipmentFormModal
      title="Edit Shipment Details"
      mode="edit"
      form={form}
      formErrors={formErrors}
      onSubmit={submit}
      onCancel={cancel}
      submitLabel="Update"
      busyLabel="Updating..."
      intro={
        <p className="muted modal-intro">
          Tracking number <strong className="mono">{shipment.trackingNumber}</strong>.
        </p>
      }
      customers={customers}
    />
  );
}
