import { useState } from 'react';
import { Link } from 'react-router-dom';
import { ArrowLeft, Pencil, PauseCircle, PlayCircle, UserPlus } from 'lucide-react';
import { Code, ConnectError } from '@connectrpc/connect';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { CustomerStatus, type Customer } from '@/gen/logistics/v1/customer_pb';
import { PaymentMode } from '@/gen/logistics/v1/shipment_pb';
import { ErrorAlert } from '@/components/ui/ErrorAlert';
import { ConfirmDialog } from '@/components/ui/Modal';
import { Spinner } from '@/components/ui/Spinner';
import { StatusBadge } from '@/components/shipment/StatusBadge';
import '@/components/ui/data-table.css';
import { ADMIN_CUSTOMERS_PATH, customerShipmentsPath } from '@/config/routes';
import { serverMessage } from '@/lib/rpc-errors';
import { toast } from '@/lib/toast';
import { EMPTY_VALUE, formatDateTime } from '@/utils/format';
import { paymentModeLabel, statusKey } from '@/utils/shipment';
import { useCustomer, useCustomerShipments, useCustomerUsers, useUpdateCustomer } from '../api/customers';
import { customerRoleLabel } from '../utils/customer-roles';
import { CustomerFormDialog } from './CustomerFormDialog';
import { CustomerStatusPill } from './CustomerStatusPill';
import { InviteUserDialog } from './InviteUserDialog';
import './customers.css';

export type CustomerPageAccess = { manage: boolean; users: boolean; shipments: boolean };

type Dialog = 'none' | 'edit' | 'status' | 'invite';

const when = (t: Customer['createTime']) => formatDateTime(t ? timestampDate(t) : undefined);

/** One customer: its details, Edit, Suspend/Reactivate, its users (Invite user) and its latest
 * shipments. */
export function CustomerPage({ id, access }: { id: string; access: CustomerPageAccess }) {
  const query = useCustomer(id);
  const customer = query.data;
  const [dialog, setDialog] = useState<Dialog>('none');
  const updateCustomer = useUpdateCustomer();
  const [changing, setChanging] = useState(false);

  if (query.isPending) return <Spinner label="Loading customer…" />;
  if (!customer) {
    const missing = ConnectError.from(query.error).code === Code.NotFound;
    return (
      <div className="admin-customer">
        <BackLink />
        <ErrorAlert message={missing ? 'Customer not found' : serverMessage(query.error, 'Failed to load the customer')} />
      </div>
    );
  }

  const suspended = customer.status === CustomerStatus.SUSPENDED;
  const changeStatus = async () => {
    setChanging(true);
    try {
      const status = suspended ? CustomerStatus.ACTIVE : CustomerStatus.SUSPENDED;
      await updateCustomer({ customer: { id: customer.id, status }, updateMask: { paths: ['status'] } });
      toast.success(suspended ? `${customer.name} reactivated` : `${customer.name} suspended`);
      setDialog('none');
    } catch (error) {
      toast.error(serverMessage(error, suspended ? 'Failed to reactivate the customer' : 'Failed to suspend the customer'));
    } finally {
      setChanging(false);
    }
  };

  return (
    <div className="admin-customer">
      <BackLink />
      <div className="admin-page-head">
        <h1 className="customer-title">
          <span>{customer.name}</span> <CustomerStatusPill status={customer.status} />
        </h1>
        {access.manage && (
          <div className="admin-page-actions">
            <button type="button" className="btn btn-outline" onClick={() => setDialog('edit')}>
              <Pencil aria-hidden="true" size={18} />
              Edit
            </button>
            <button
              type="button"
              className={`btn ${suspended ? 'btn-outline' : 'btn-danger'}`}
              onClick={() => setDialog('status')}
            >
              {suspended ? <PlayCircle aria-hidden="true" size={18} /> : <PauseCircle aria-hidden="true" size={18} />}
              {suspended ? 'Reactivate' : 'Suspend'}
            </button>
          </div>
        )}
      </div>

      <section className="card customer-details" aria-labelledby="customer-details-heading">
        <h2 id="customer-details-heading" className="card-title">
          Details
        </h2>
        <dl className="customer-facts">
          <div>
            <dt>Account number</dt>
            <dd className="mono">{customer.accountNumber}</dd>
          </div>
          <div>
            <dt>Default payment mode</dt>
            <dd>{customer.defaultPaymentMode === PaymentMode.UNSPECIFIED ? EMPTY_VALUE : paymentModeLabel(customer.defaultPaymentMode)}</dd>
          </div>
          <div>
            <dt>Created</dt>
            <dd>{when(customer.createTime)}</dd>
          </div>
          <div className="customer-fact-wide">
            <dt>Billing address</dt>
            <dd className="pre-line">{customer.billingAddress || EMPTY_VALUE}</dd>
          </div>
          <div className="customer-fact-wide">
            <dt>Contacts</dt>
            <dd>
              {customer.contacts.length === 0 ? (
                EMPTY_VALUE
              ) : (
                <ul className="customer-contact-list">
                  {customer.contacts.map((c, i) => (
                    <li key={i}>
                      <strong>{c.name}</strong>
                      {c.email && (
                        <>
                          {' · '}
                          <a href={`mailto:${c.email}`}>{c.email}</a>
                        </>
                      )}
                      {c.phone && (
                        <>
                          {' · '}
                          <a href={`tel:${c.phone}`} dir="ltr">
                            {c.phone}
                          </a>
                        </>
                      )}
                    </li>
                  ))}
                </ul>
              )}
            </dd>
          </div>
        </dl>
      </section>

      {access.users && (
        <CustomerUsers customer={customer} canInvite={access.manage} onInvite={() => setDialog('invite')} />
      )}
      {access.shipments && <CustomerShipments customer={customer} />}

      {dialog === 'edit' && (
        <CustomerFormDialog customer={customer} onClose={() => setDialog('none')} onSaved={() => setDialog('none')} />
      )}
      {dialog === 'invite' && <InviteUserDialog customer={customer} onClose={() => setDialog('none')} />}
      {dialog === 'status' && (
        <ConfirmDialog
          title={suspended ? 'Reactivate customer' : 'Suspend customer'}
          confirmLabel={suspended ? 'Reactivate' : 'Suspend'}
          busy={changing}
          onCancel={() => setDialog('none')}
          onConfirm={() => void changeStatus()}
        >
          <p>
            {suspended
              ? `Reactivate ${customer.name}? Their users can sign in again.`
              : `Suspend ${customer.name}? Their users are signed out within seconds and cannot sign in until you reactivate the customer.`}
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}

function BackLink() {
  return (
    <p className="customer-back">
      <Link to={ADMIN_CUSTOMERS_PATH}>
        <ArrowLeft className="flip-rtl" aria-hidden="true" size={16} />
        All customers
      </Link>
    </p>
  );
}

function CustomerUsers({ customer, canInvite, onInvite }: { customer: Customer; canInvite: boolean; onInvite: () => void }) {
  const users = useCustomerUsers(customer.id, true);
  const list = users.data?.users ?? [];
  const suspended = customer.status === CustomerStatus.SUSPENDED;
  return (
    <section className="card customer-section" aria-labelledby="customer-users-heading">
      <div className="customer-section-head">
        <h2 id="customer-users-heading" className="card-title">
          Users
        </h2>
        {canInvite && (
          <button type="button" className="btn btn-primary btn-sm" onClick={onInvite} disabled={suspended}>
            <UserPlus aria-hidden="true" size={16} />
            Invite user
          </button>
        )}
      </div>
      {canInvite && suspended && <p className="muted">Reactivate the customer to invite users.</p>}
      {users.error && <ErrorAlert message={serverMessage(users.error, 'Failed to load users')} />}
      {users.isPending ? (
        <Spinner size="sm" label="Loading users…" />
      ) : list.length === 0 ? (
        !users.error && <p className="empty-state">No users yet.</p>
      ) : (
        <div className="table-cards">
          <div className="table-scroll" role="region" aria-label={`Users of ${customer.name}`} tabIndex={0}>
            <table className="data-table customer-users-table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">E-mail</th>
                  <th scope="col">Role</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {list.map((user) => (
                  <tr key={user.id}>
                    <th scope="row" className="cell-text">
                      {user.name}
                    </th>
                    <td data-label="E-mail" className="cell-email">
                      {user.email}
                    </td>
                    <td data-label="Role">{customerRoleLabel(user.role)}</td>
                    <td className="card-aside">
                      <span className={`status-pill ${user.disabled ? 'is-off' : 'is-on'}`}>
                        {user.disabled ? 'Disabled' : 'Active'}
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      )}
    </section>
  );
}

function CustomerShipments({ customer }: { customer: Customer }) {
  const shipments = useCustomerShipments(customer.id, true);
  const list = shipments.data?.shipments ?? [];
  const total = shipments.data?.totalSize ?? 0;
  return (
    <section className="card customer-section" aria-labelledby="customer-shipments-heading">
      <div className="customer-section-head">
        <h2 id="customer-shipments-heading" className="card-title">
          Shipments
        </h2>
        <Link className="btn btn-outline btn-sm" to={customerShipmentsPath(customer.id)}>
          View shipments
        </Link>
      </div>
      {shipments.error && <ErrorAlert message={serverMessage(shipments.error, 'Failed to load shipments')} />}
      {shipments.isPending ? (
        <Spinner size="sm" label="Loading shipments…" />
      ) : list.length === 0 ? (
        !shipments.error && <p className="empty-state">No shipments yet.</p>
      ) : (
        <>
          <ul className="customer-shipment-list" aria-label={`Latest shipments of ${customer.name}`}>
            {list.map((s) => (
              <li key={s.id}>
                <Link className="mono" to={customerShipmentsPath(customer.id, s.trackingNumber)}>
                  {s.trackingNumber}
                </Link>
                <StatusBadge statusKey={statusKey(s.status)} />
                <span className="customer-shipment-route">
                  {s.origin} → {s.destination}
                </span>
                <span className="muted">{when(s.createTime)}</span>
              </li>
            ))}
          </ul>
          {total > list.length && (
            <p className="muted">
              {list.length} of {total > 1000 ? '1,000+' : total.toLocaleString('en-US')} shipments shown.
            </p>
          )}
        </>
      )}
    </section>
  );
}
