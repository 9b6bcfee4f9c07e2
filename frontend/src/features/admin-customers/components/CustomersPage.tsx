import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { ChevronLeft, ChevronRight, Plus, RefreshCw } from 'lucide-react';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { ErrorAlert } from '@/components/ui/ErrorAlert';
import { Spinner } from '@/components/ui/Spinner';
import '@/components/ui/data-table.css';
import { customerPath } from '@/config/routes';
import { formatDateTime } from '@/utils/format';
import { useCustomerList } from '../hooks/use-customer-list';
import { STATUS_CHOICES } from '../utils/customer-form';
import type { CustomerListParams } from '../utils/list-params';
import { CustomerFormDialog } from './CustomerFormDialog';
import { CustomerStatusPill } from './CustomerStatusPill';
import './customers.css';

/** Customers: search, status filter and pages (all in the address), a row per customer (a card
 * on a phone) and, for those who manage customers, New customer. */
export function CustomersPage({ canManage }: { canManage: boolean }) {
  const list = useCustomerList();
  const [creating, setCreating] = useState(false);
  const navigate = useNavigate();
  const filtered = list.params.q !== '' || list.params.status !== 'all';

  return (
    <div className="admin-customers">
      <div className="admin-page-head">
        <h1>Customers</h1>
        <div className="admin-page-actions">
          <button type="button" className="btn btn-outline" onClick={list.refresh} disabled={list.loading}>
            <RefreshCw className={list.loading ? 'icon-spin' : undefined} aria-hidden="true" size={18} />
            Refresh
          </button>
          {canManage && (
            <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>
              <Plus aria-hidden="true" size={18} />
              New customer
            </button>
          )}
        </div>
      </div>

      <div className="card filter-form" role="search">
        <div className="field">
          <label htmlFor="customer-search" className="field-label">
            Search
          </label>
          <input
            id="customer-search"
            type="search"
            className="input"
            placeholder="Name or account number"
            maxLength={200}
            autoComplete="off"
            value={list.search}
            onChange={(event) => list.setSearch(event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="customer-status" className="field-label">
            Status
          </label>
          <select
            id="customer-status"
            className="select"
            value={list.params.status}
            onChange={(event) => list.setStatus(event.target.value as CustomerListParams['status'])}
          >
            <option value="all">All</option>
            {STATUS_CHOICES.map((s) => (
              <option key={s.key} value={s.key}>
                {s.label}
              </option>
            ))}
          </select>
        </div>
      </div>

      {list.error && <ErrorAlert message={list.error} />}

      {list.pending ? (
        <Spinner label="Loading customers…" />
      ) : list.customers.length === 0 ? (
        !list.error && (
          <p className="empty-state">
            {filtered ? 'No customers match. Change the search or the status filter.' : 'No customers yet.'}
          </p>
        )
      ) : (
        <div className="table-cards">
          <div className="table-scroll" role="region" aria-label="Customers" tabIndex={0}>
            <table className="data-table customers-table" aria-busy={list.loading}>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Account number</th>
                  <th scope="col">Status</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {list.customers.map((customer) => (
                  <tr key={customer.id}>
                    <th scope="row">
                      <Link to={customerPath(customer.id)}>{customer.name}</Link>
                    </th>
                    <td data-label="Account number" className="mono">
                      {customer.accountNumber}
                    </td>
                    <td className="card-aside">
                      <CustomerStatusPill status={customer.status} />
                    </td>
                    <td data-label="Created">
                      {formatDateTime(customer.createTime ? timestampDate(customer.createTime) : undefined)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      )}

      {(list.hasPrevious || list.hasNext) && (
        <nav className="customers-pagination" aria-label="Pages">
          <button type="button" className="btn btn-outline btn-sm" onClick={list.previous} disabled={!list.hasPrevious || list.loading}>
            <ChevronLeft className="flip-rtl" aria-hidden="true" size={16} />
            Previous
          </button>
          <span className="muted">Page {list.params.page}</span>
          <button type="button" className="btn btn-outline btn-sm" onClick={list.next} disabled={!list.hasNext}>
            Next
            <ChevronRight className="flip-rtl" aria-hidden="true" size={16} />
          </button>
        </nav>
      )}

      {creating && (
        <CustomerFormDialog
          onClose={() => setCreating(false)}
          onSaved={(customer) => {
            setCreating(false);
            navigate(customerPath(customer.id));
          }}
        />
      )}
    </div>
  );
}
