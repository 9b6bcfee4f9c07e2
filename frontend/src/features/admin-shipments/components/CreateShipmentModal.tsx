import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { Shipment } from '@/gen/logistics/v1/shipment_pb';
import { toast } from '@/lib/toast';
import { useCreateShipment } from '../api/shipments';
import { applyServerErrors } from '../utils/server-errors';
import { defaultShipmentFormValues, formValuesToNewShipment, type ShipmentFormValues } from '../utils/shipment-form';
import { ShipmentFormModal } from './ShipmentFormModal';

const CREATE_SUCCESS_MESSAGE = 'Shipment created successfully';
const CREATE_FAILURE_MESSAGE = 'Failed to create shipment';
const CREATE_SERVICE_MESSAGE = 'Unable to create shipment. Please check your connection and try again.';

type CreateShipmentModalProps = { onClose: () => void; onCreated: (shipment: Shipment) => void; customers: boolean };

/** The Create Shipment modal: every field, Cancel (back to the defaults) and Create. */
export function CreateShipmentModal({ onClose, onCreated, customers }: CreateShipmentModalProps) {
  const form = useForm<ShipmentFormValues>({ defaultValues: defaultShipmentFormValues() });
  const createShipment = useCreateShipment();
  const [formErrors, setFormErrors] = useState<string[]>([]);

  const cancel = () => {
    form.reset(defaultShipmentFormValues());
    setFormErrors([]);
    onClose();
  };

  const submit = form.handleSubmit(async (values) => {
    setFormErrors([]);
    try {
      const created = await createShipment(formValuesToNewShipment(values));
      toast.success(CREATE_SUCCESS_MESSAGE);
      form.reset(defaultShipmentFormValues());
      onCreated(created);
    } catch (error) {
      toast.error(CREATE_FAILURE_MESSAGE);
      setFormErrors(applyServerErrors(form, error, CREATE_SERVICE_MESSAGE));
    }
  });

  return (
    <ShipmentFormModal
      title="Create Shipment"
      mode="create"
      form={form}
      formErrors={formErrors}
      onSubmit={submit}
      onCancel={cancel}
      submitLabel="Create"
      busyLabel="Creating..."
      customers={customers}
    />
  );
}
