import { useState, type FormEvent } from 'react';
import { Field, FormErrors } from '@/components/ui/Field';
import { fieldInputProps } from '@/components/ui/field-input-props';
import { Modal, ModalCancelButton } from '@/components/ui/Modal';
import { SubmitButton } from '@/components/ui/SubmitButton';
import { fieldViolations, serverMessage } from '@/lib/rpc-errors';
import { toast } from '@/lib/toast';
import { useAssignToCourier, useCouriers } from '../api/shipments';

/** Today in the viewer's time zone, as a date input holds it. */
function today(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

const OFF_ROUND = 'none';

/** Gives the ticked shipments to a courier for a day (their round in the courier app), or takes
 * them off every round. */
export function AssignCourierModal({ ids, onClose, onDone }: { ids: string[]; onClose: () => void; onDone: () => void }) {
  const { couriers, isPending, isError } = useCouriers();
  const assign = useAssignToCourier();
  const [courierId, setCourierId] = useState('');
  const [date, setDate] = useState(today);
  const [errors, setErrors] = useState<{ courier?: string; date?: string }>({});
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);
  const what = ids.length === 1 ? '1 shipment' : `${ids.length} shipments`;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const next: typeof errors = {};
    if (!courierId) next.courier = 'Choose a courier';
    if (courierId !== OFF_ROUND && !/^\d{4}-\d{2}-\d{2}$/.test(date)) next.date = 'Choose a day';
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    const courier = couriers.find((c) => c.id === courierId);
    setSaving(true);
    setFormErrors([]);
    try {
      await assign({ ids, courier: courier ? { id: courier.id, email: courier.email } : undefined, date });
      toast.success(courier ? `${what} given to ${courier.email}` : `${what} taken off the round`);
      onDone();
      onClose();
    } catch (error) {
      const violations = fieldViolations(error);
      const dateError = violations.find((v) => v.field === 'date');
      if (dateError) setErrors({ date: `Day: ${dateError.description}` });
      setFormErrors(dateError ? [] : [serverMessage(error, 'Failed to assign the shipments')]);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal title={`Assign ${what} to a courier`} onClose={onClose} busy={saving} size="sm">
      <form className="form-stack" onSubmit={(e) => void submit(e)} noValidate aria-busy={saving}>
        <FormErrors messages={formErrors} />
        <p className="muted">They show on the courier's round for that day in the courier app.</p>
        <Field
          id="assign-courier"
          label="Courier"
          error={errors.courier}
          hint={isError ? 'The couriers could not be loaded.' : !isPending && couriers.length === 0 ? 'No courier yet: add a user with the Courier role.' : undefined}
        >
          <select
            className="select"
            data-autofocus
            value={courierId}
            onChange={(e) => setCourierId(e.target.value)}
            {...fieldInputProps('assign-courier', errors.courier)}
          >
            <option value="">{isPending ? 'Loading…' : 'Choose a courier'}</option>
            {couriers.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name ? `${c.name} (${c.email})` : c.email}
              </option>
            ))}
            <option value={OFF_ROUND}>No courier: take them off the round</option>
          </select>
        </Field>
        {courierId !== OFF_ROUND && (
          <Field id="assign-date" label="Day" error={errors.date}>
            <input type="date" className="input" value={date} onChange={(e) => setDate(e.target.value)} {...fieldInputProps('assign-date', errors.date)} />
          </Field>
        )}
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
