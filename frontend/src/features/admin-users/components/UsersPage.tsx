import { useState } from 'react';
import { Link } from 'react-router-dom';
import { RefreshCw } from 'lucide-react';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { ErrorAlert } from '@/components/ui/ErrorAlert';
import type { User } from '@/gen/logistics/v1/user_pb';
import { Spinner } from '@/components/ui/Spinner';
import '@/components/ui/data-table.css';
import { serverMessage } from '@/lib/rpc-errors';
import { toast } from '@/lib/toast';
import { formatDateTime } from '@/utils/format';
import { ADMIN_ACCOUNT_PATH } from '@/config/routes';
import { setUserDisabled } from '../api/users';
import { useUsers } from '../hooks/use-users';
import { CreateUserForm } from './CreateUserForm';
import { UserAccess } from './UserAccess';
import './users.css';

/** Users: the list with each user's role and Disable/Enable (a card per user on a phone), a
 * create form (for those who manage users) and a link to the signed-in user's account page. */
export function UsersPage({ currentUserId, canManage }: { currentUserId: string; canManage: boolean }) {
  const { users, loading, error, reload, replace } = useUsers();
  const [busyId, setBusyId] = useState<string | null>(null);

  const toggle = async (user: User) => {
    if (busyId) return;
    setBusyId(user.id);
    const disable = !user.disabled;
    try {
      const updated = await setUserDisabled(user.id, disable);
      replace(updated);
      toast.success(disable ? `User ${user.email} disabled` : `User ${user.email} enabled`);
    } catch (err) {
      toast.error(serverMessage(err, disable ? 'Failed to disable user' : 'Failed to enable user'));
    } finally {
      setBusyId(null);
    }
  };

  return (
    <div className="admin-users">
      <div className="admin-page-head">
        <h1>Users</h1>
        <button type="button" className="btn btn-outline" onClick={reload} disabled={loading}>
          <RefreshCw className={loading ? 'icon-spin' : undefined} aria-hidden="true" size={18} />
          Refresh
        </button>
      </div>

      {error && (
        <ErrorAlert message={error} />
      )}

      {loading && users.length === 0 ? (
        <Spinner label="Loading users…" />
      ) : (
        <div className="table-cards">
          <div className="table-scroll" role="region" aria-label="Users" tabIndex={0}>
            <table className="data-table users-table" aria-busy={loading}>
              <thead>
                <tr>
                  <th scope="col">Email</th>
                  <th scope="col">Name</th>
                  <th scope="col">Role</th>
                  <th scope="col">Status</th>
                  <th scope="col">Created</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {users.map((user) => (
                  <tr key={user.id} data-email={user.email}>
                    <th scope="row" className="cell-email">
                      {user.email}
                    </th>
                    <td data-label="Name" className="cell-text">
                      {user.name}
                    </td>
                    <td data-label="Role">
                      <UserAccess user={user} editable={canManage && user.id !== currentUserId} onChanged={replace} />
                    </td>
                    <td className="card-aside">
                      <span className={`status-pill ${user.disabled ? 'is-off' : 'is-on'}`}>
                        {user.disabled ? 'Disabled' : 'Active'}
                      </span>
                    </td>
                    <td data-label="Created">{formatDateTime(user.createTime ? timestampDate(user.createTime) : undefined)}</td>
                    <td className="card-actions">
                      {user.id === currentUserId ? (
                        <span className="muted">You</span>
                      ) : !canManage ? null : (
                        <button
                          type="button"
                          className={`btn btn-sm ${user.disabled ? 'btn-outline' : 'btn-danger'}`}
                          aria-label={`${user.disabled ? 'Enable' : 'Disable'} user ${user.email}`}
                          disabled={busyId !== null}
                          onClick={() => toggle(user)}
                        >
                          {user.disabled ? 'Enable' : 'Disable'}
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      )}

      <div className="admin-forms">
        {canManage && <CreateUserForm onCreated={reload} />}
        <p className="admin-users-account-note">
          Your own password, sessions and theme are on <Link to={ADMIN_ACCOUNT_PATH}>your account page</Link>.
        </p>
      </div>
    </div>
  );
}
