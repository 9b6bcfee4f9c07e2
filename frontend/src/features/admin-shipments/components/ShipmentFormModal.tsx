import type { FormEventHandler, ReactNode } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { FormErrors } from '@/components/ui/Field';
import { Modal, ModalCancelButton } from '@/components/ui/Modal';
import { SubmitButton } from '@/components/ui/SubmitButton';
import type { ShipmentFormValues } from '../utils/shipment-form';
import { ShipmentFormFields } from './ShipmentFormFields';

type ShipmentFormModalProps = {
  title: string;
  mode: 'create' | 'edit';
  form: UseFormReturn<ShipmentFormValues>;
  formErrors: string[];
  onSubmit: FormEventHandler<HTMLFormElement>;
  onCancel: () => void;
  submitLabel: string;
  busyLabel: string;
  intro?: ReactNode;
  /** The user reads customers (the Customer input). */
  customers: boolean;
};

/** The modal both the Create and the Edit dialogs share: every shipment field, Cancel and submit. */
export function ShipmentFormModal(props: ShipmentFormModalProps) {
  const { title, mode, form, formErrors, onSubmit, onCancel, submitLabel, busyLabel, intro, customers } = props;
  const saving = form.formState.isSubmitting;
  return (
    <Modal title={title} onClose={onCancel} size="lg" busy={saving} dirty={form.formState.isDirty}>
      {intro}
      <form onSubmit={onSubmit} aria-busy={saving} className="shipment-form">
        <FormErrors messages={formErrors} />
        <ShipmentFormFields form={form} mode={mode} idPrefix={mode} customers={customers} />
        <div className="modal-footer">
          <ModalCancelButton disabled={saving} />
          <SubmitButton busy={saving} busyLabel={busyLabel}>
            {submitLabel}
          </SubmitButton>
        </div>
      </form>
    </Modal>
  );
}
