import { useState } from 'react';
import type { Pickup } from '@/gen/logistics/v1/customer_pb';
import { Role, type User } from '@/gen/logistics/v1/user_pb';
import { Field, FormErrors } from '@/components/ui/Field';
import { fieldInputProps } from '@/components/ui/field-input-props';
import { Modal, ModalCancelButton } from '@/components/ui/Modal';
import { SubmitButton } from '@/components/ui/SubmitButton';
import { serverMessage } from '@/lib/rpc-errors';
import { toast } from '@/lib/toast';
import { useAssignPickup, useStaffUsers } from '../api/pickups';

/** Assign: picks the agent or courier among the staff users (users.read), or else assigns the
 * pickup to the signed-in user. A courier sees it on their round of the pickup's day. */
export function AssignPickupDialog({
  pickup,
  user,
  canListUsers,
  onClose,
}: {
  pickup: Pickup;
  user: User;
  canListUsers: boolean;
  onClose: () => void;
}) {
  const users = useStaffUsers(canListUsers);
  const agents = canListUsers
    ? (users.data?.users ?? []).filter((u) => !u.disabled && (u.permissions.includes('pickups.manage') || u.role === Role.COURIER))
    : [user];
  const [agentId, setAgentId] = useState(pickup.agentId || user.id);
  const [saving, setSaving] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);
  const assign = useAssignPickup();
  const options = agents.some((a) => a.id === user.id) ? agents : [user, ...agents];

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const agent = options.find((a) => a.id === agentId);
    if (!agent) return;
    setSaving(true);
    setErrors([]);
    try {
      await assign({ id: pickup.id, agentId: agent.id, agentEmail: agent.email });
      toast.success(`Pickup assigned to ${agent.email}`);
      onClose();
    } catch (error) {
      const message = serverMessage(error, 'Failed to assign the pickup');
      toast.error(message);
      setErrors([message]);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal title={`Assign the pickup of ${pickup.customerName}`} onClose={onClose} busy={saving} size="sm">
      <form onSubmit={(event) => void submit(event)} aria-busy={saving} noValidate>
        <FormErrors messages={errors} />
        <Field id="pickup-agent" label="Agent or courier">
          <select
            className="select"
            data-autofocus
            value={agentId}
            onChange={(event) => setAgentId(event.target.value)}
            {...fieldInputProps('pickup-agent')}
          >
            {options.map((agent) => (
              <option key={agent.id} value={agent.id}>
                {agent.id === user.id ? `Me (${agent.email})` : agent.name ? `${agent.name} (${agent.email})` : agent.email}
              </option>
            ))}
          </select>
        </Field>
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
