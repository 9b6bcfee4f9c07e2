import { useState } from 'react';
import type { ShipmentException } from '@/gen/logistics/v1/shipment_exception_service_pb';
import type { User } from '@/gen/logistics/v1/user_pb';
import { Field, FormErrors } from '@/components/ui/Field';
import { fieldInputProps } from '@/components/ui/field-input-props';
import { Modal, ModalCancelButton } from '@/components/ui/Modal';
import { SubmitButton } from '@/components/ui/SubmitButton';
import { isStaff } from '@/config/permissions';
import { serverMessage } from '@/lib/rpc-errors';
import { toast } from '@/lib/toast';
import { useAssignException, useStaffUsers } from '../api/exceptions';
import { kindLabel } from '../utils/exceptions';

/** The choice that gives the exception to nobody. */
const NOBODY = '';

/** Assign…: gives the exception to an enabled staff member (users.read lists them; without it,
 * to the signed-in user), or to nobody. */
export function AssignExceptionDialog({
  exception,
  user,
  canListUsers,
  onClose,
}: {
  exception: ShipmentException;
  user: User;
  canListUsers: boolean;
  onClose: () => void;
}) {
  const users = useStaffUsers(canListUsers);
  const staff = canListUsers ? (users.data?.users ?? []).filter((u) => isStaff(u) && u.id !== user.id) : [];
  // Someone the list does not show (disabled since, or beyond its first page) stays a choice.
  const current =
    exception.assigneeId && exception.assigneeId !== user.id && !staff.some((u) => u.id === exception.assigneeId)
      ? [{ id: exception.assigneeId, email: exception.assigneeEmail, name: '' }]
      : [];
  const options = [{ id: user.id, email: user.email, name: '' }, ...current, ...staff];
  const [assigneeId, setAssigneeId] = useState(exception.assigneeId || user.id);
  const [saving, setSaving] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);
  const assign = useAssignException();
  const what = `${exception.trackingNumber} (${kindLabel(exception.kind)})`;

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const assignee = options.find((a) => a.id === assigneeId);
    if (assigneeId !== NOBODY && !assignee) return;
    setSaving(true);
    setErrors([]);
    try {
      await assign({ id: exception.id, assigneeId, assigneeEmail: assignee?.email ?? '' });
      toast.success(assignee ? `${what} assigned to ${assignee.id === user.id ? 'you' : assignee.email}` : `${what} unassigned`);
      onClose();
    } catch (error) {
      const message = serverMessage(error, 'Failed to assign the exception');
      toast.error(message);
      setErrors([message]);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal title={`Assign ${what}`} onClose={onClose} busy={saving} size="sm">
      <form onSubmit={(event) => void submit(event)} aria-busy={saving} noValidate>
        <FormErrors messages={errors} />
        <Field id="exception-assignee-choice" label="Assignee">
          <select
            className="select"
            data-autofocus
            value={assigneeId}
            onChange={(event) => setAssigneeId(event.target.value)}
            {...fieldInputProps('exception-assignee-choice')}
          >
            <option value={NOBODY}>Nobody</option>
            {options.map((person) => (
              <option key={person.id} value={person.id}>
                {person.id === user.id ? `Me (${person.email})` : person.name ? `${person.name} (${person.email})` : person.email}
              </option>
            ))}
          </select>
        </Field>
        {canListUsers && users.isPending && <p className="muted">Loading the staff…</p>}
        {users.error && <p className="field-error">{serverMessage(users.error, 'Failed to load the staff')}</p>}
        <div className="modal-footer">
          <ModalCancelButton disabled={saving} />
          <SubmitButton busy={saving} busyLabel="Assigning...">
            Assign
          </SubmitButton>
        </div>
      </form>
    </Modal>
  );
}
