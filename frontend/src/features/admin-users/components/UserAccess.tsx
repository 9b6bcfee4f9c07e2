import { useState } from 'react';
import type { Role, User } from '@/gen/logistics/v1/user_pb';
import { serverMessage } from '@/lib/rpc-errors';
import { toast } from '@/lib/toast';
import { changeRole, narrowPermissions } from '../api/users';
import { ROLES, permissionLabel, roleLabel } from '../utils/roles';

type Props = {
  user: User;
  /** The signed-in admin may change it (not their own, not without users.manage). */
  editable: boolean;
  onChanged: (user: User) => void;
};

/** A user's role, and the permissions of the role they hold; an admin changes both here. */
export function UserAccess({ user, editable, onChanged }: Props) {
  const [busy, setBusy] = useState(false);
  const [chosen, setChosen] = useState<string[] | null>(null);
  const selected = chosen ?? user.permissions;

  const run = async (change: () => Promise<User>, done: string, failed: string) => {
    setBusy(true);
    try {
      onChanged(await change());
      setChosen(null);
      toast.success(done);
    } catch (err) {
      toast.error(serverMessage(err, failed));
    } finally {
      setBusy(false);
    }
  };

  if (!editable) {
    return <span>{roleLabel(user.role)}</span>;
  }
  const selectId = `role-${user.id}`;
  return (
    <div className="user-access">
      <label htmlFor={selectId} className="visually-hidden">
        Role of {user.email}
      </label>
      <select
        id={selectId}
        className="select select-sm"
        value={String(user.role)}
        disabled={busy}
        onChange={(event) => {
          const role = Number(event.target.value) as Role;
          void run(
            () => changeRole(user.id, role),
            `${user.email} is now ${roleLabel(role)}`,
            'Failed to change the role',
          );
        }}
      >
        {ROLES.map(({ role, label }) => (
          <option key={role} value={String(role)}>
            {label}
          </option>
        ))}
      </select>
      {user.rolePermissions.length > 0 && (
        <details className="user-permissions">
          <summary>
            Permissions ({user.permissions.length} of {user.rolePermissions.length})
          </summary>
          <fieldset disabled={busy}>
            <legend className="visually-hidden">Permissions of {user.email}</legend>
            {user.rolePermissions.map((permission) => (
              <label key={permission} className="checkbox-row">
                <input
                  type="checkbox"
                  checked={selected.includes(permission)}
                  onChange={(event) =>
                    setChosen(
                      event.target.checked
                        ? [...selected, permission]
                        : selected.filter((p) => p !== permission),
                    )
                  }
                />
                {permissionLabel(permission)}
              </label>
            ))}
            <button
              type="button"
              className="btn btn-sm btn-outline"
              disabled={chosen === null}
              onClick={() =>
                void run(
                  () => narrowPermissions(user.id, selected),
                  `Permissions of ${user.email} saved`,
                  'Failed to save the permissions',
                )
              }
            >
              Save permissions
            </button>
          </fieldset>
        </details>
      )}
    </div>
  );
}
