import { useState } from 'react';
import type { AccountRequest } from '@/gen/logistics/v1/customer_pb';
import { Field, FormErrors } from '@/components/ui/Field';
import { fieldInputProps } from '@/components/ui/field-input-props';
import { Modal, ModalCancelButton } from '@/components/ui/Modal';
import { SubmitButton } from '@/components/ui/SubmitButton';
import { fieldViolations, serverMessage } from '@/lib/rpc-errors';
import { toast } from '@/lib/toast';
import { useDeclineAccountRequest } from '../api/customers';

/** Decline: a reason (required) that is e-mailed to the visitor. */
export function DeclineRequestDialog({ request, onClose }: { request: AccountRequest; onClose: () => void }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState('');
  const [errors, setErrors] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);
  const decline = useDeclineAccountRequest();

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const text = reason.trim();
    if (!text) {
      setError('Enter the reason');
      return;
    }
    setSaving(true);
    setError('');
    setErrors([]);
    try {
      await decline({ id: request.id, reason: text });
      toast.success(`${request.companyName} declined: ${request.email} was e-mailed the reason`);
      onClose();
    } catch (failure) {
      const message = serverMessage(failure, 'Failed to decline the request');
      toast.error(message);
      const onReason = fieldViolations(failure).find((v) => v.field === 'reason');
      if (onReason) setError(onReason.description);
      else setErrors([message]);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal title={`Decline ${request.companyName}`} onClose={onClose} busy={saving} dirty={reason !== ''} size="sm">
      <form onSubmit={(event) => void submit(event)} aria-busy={saving} noValidate>
        <FormErrors messages={errors} />
        <Field id="decline-reason" label="Reason" error={error || undefined} hint={error ? undefined : `The reason is e-mailed to ${request.email}.`}>
          <textarea
            className="textarea"
            rows={4}
            maxLength={500}
            data-autofocus
            value={reason}
            onChange={(event) => {
              setReason(event.target.value);
              // A typed reason answers "Enter the reason".
              if (event.target.value.trim()) setError('');
            }}
            {...fieldInputProps('decline-reason', error || undefined, `The reason is e-mailed to ${request.email}.`)}
          />
        </Field>
        <div className="modal-footer">
          <ModalCancelButton disabled={saving} />
          <SubmitButton busy={saving} busyLabel="Declining...">
            Decline
          </SubmitButton>
        </div>
      </form>
    </Modal>
  );
}
