import { useState } from 'react';
import type { ShipmentException } from '@/gen/logistics/v1/shipment_exception_service_pb';
import { Field, FormErrors } from '@/components/ui/Field';
import { fieldInputProps } from '@/components/ui/field-input-props';
import { Modal, ModalCancelButton } from '@/components/ui/Modal';
import { SubmitButton } from '@/components/ui/SubmitButton';
import { fieldViolations, serverMessage } from '@/lib/rpc-errors';
import { toast } from '@/lib/toast';
import { useResolveException } from '../api/exceptions';
import { kindLabel } from '../utils/exceptions';

const REASON_REQUIRED = 'Enter what was done';
const MAX_REASON = 500;
const ID = 'exception-resolution';

/** Resolve…: what was done (1..500 characters); the exception leaves the queue until its
 * condition returns. */
export function ResolveExceptionDialog({ exception, onClose }: { exception: ShipmentException; onClose: () => void }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState('');
  const [errors, setErrors] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);
  const resolve = useResolveException();
  const what = `${exception.trackingNumber} (${kindLabel(exception.kind)})`;
  const hint = `Up to ${MAX_REASON} characters, kept with the exception and in the audit log.`;

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
      await resolve({ id: exception.id, reason: text });
      toast.success(`${what} resolved`);
      onClose();
    } catch (failure) {
      const message = serverMessage(failure, 'Failed to resolve the exception');
      toast.error(message);
      const onReason = fieldViolations(failure).find((v) => v.field === 'reason' || v.field.endsWith('.reason'));
      if (onReason) setError(onReason.description);
      else setErrors([message]);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal title={`Resolve ${what}`} onClose={onClose} busy={saving} dirty={reason !== ''} size="sm">
      <form onSubmit={(event) => void submit(event)} aria-busy={saving} noValidate>
        <FormErrors messages={errors} />
        <Field id={ID} label="What was done" error={error || undefined} hint={hint}>
          <textarea
            className="textarea"
            rows={4}
            maxLength={MAX_REASON}
            data-autofocus
            value={reason}
            onChange={(event) => {
              setReason(event.target.value);
              // A typed reason answers "Enter what was done".
              if (event.target.value.trim()) setError('');
            }}
            {...fieldInputProps(ID, error || undefined, hint)}
          />
        </Field>
        <div className="modal-footer">
          <ModalCancelButton disabled={saving} />
          <SubmitButton busy={saving} busyLabel="Resolving...">
            Resolve
          </SubmitButton>
        </div>
      </form>
    </Modal>
  );
}
