import { useState } from 'react';
import type { Pickup } from '@/gen/logistics/v1/customer_pb';
import { Field, FormErrors } from '@/components/ui/Field';
import { fieldInputProps } from '@/components/ui/field-input-props';
import { Modal, ModalCancelButton } from '@/components/ui/Modal';
import { SubmitButton } from '@/components/ui/SubmitButton';
import { fieldViolations, serverMessage } from '@/lib/rpc-errors';
import { toast } from '@/lib/toast';
import { useFailPickup } from '../api/pickups';

const REASON_REQUIRED = 'Enter the reason';

/** Mark failed: the pickup could not be done, for a reason (required). */
export function FailPickupDialog({ pickup, onClose }: { pickup: Pickup; onClose: () => void }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState('');
  const [errors, setErrors] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);
  const fail = useFailPickup();

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const text = reason.trim();
    if (!text) {
      setError(REASON_REQUIRED);
      return;
    }
    setSaving(true);
    setError('');
    setErrors([]);
    try {
      await fail({ id: pickup.id, reason: text });
      toast.success('Pickup marked failed');
      onClose();
    } catch (failure) {
      const message = serverMessage(failure, 'Failed to mark the pickup failed');
      toast.error(message);
      const onReason = fieldViolations(failure).find((v) => v.field === 'reason');
      if (onReason) setError(onReason.description);
      else setErrors([message]);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal title={`Mark failed: the pickup of ${pickup.customerName}`} onClose={onClose} busy={saving} dirty={reason !== ''} size="sm">
      <form onSubmit={(event) => void submit(event)} aria-busy={saving} noValidate>
        <FormErrors messages={errors} />
        <Field id="pickup-fail-reason" label="Reason" error={error || undefined}>
          <textarea
            className="textarea"
            rows={3}
            maxLength={500}
            data-autofocus
            value={reason}
            onChange={(event) => {
              setReason(event.target.value);
              // A typed reason answers "Enter the reason".
              if (event.target.value.trim()) setError('');
            }}
            {...fieldInputProps('pickup-fail-reason', error || undefined)}
          />
        </Field>
        <div className="modal-footer">
          <ModalCancelButton disabled={saving} />
          <SubmitButton busy={saving} busyLabel="Saving...">
            Mark failed
          </SubmitButton>
        </div>
      </form>
    </Modal>
  );
}
