import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { useSearchParams } from 'react-router-dom';
import { RefreshCw } from 'lucide-react';
import { AuditEntryList, type ChangeDescriber } from '@/components/admin/AuditEntryList';
import { FilterActions } from '@/components/admin/FilterActions';
import { FilterFold } from '@/components/admin/FilterFold';
import { ErrorAlert } from '@/components/ui/ErrorAlert';
import { Field } from '@/components/ui/Field';
import { Spinner } from '@/components/ui/Spinner';
import { ACTIONS } from '@/utils/audit';
import { useAuditEntries } from '../hooks/use-audit-entries';
import { type AuditFilters, filtersFromParams, filtersToParams } from '../utils/filters';

const NO_FILTERS: AuditFilters = { user: '', action: '', target: '', from: '', to: '' };

/** The audit log: every change, newest first, filtered by user, action, target and days; a
 * shipment's fields named as `describeShipmentChange` says (the app passes the shipment form's). */
export function AuditPage({ describeShipmentChange }: { describeShipmentChange?: ChangeDescriber }) {
  const [params, setParams] = useSearchParams();
  const filters = filtersFromParams(params);
  const form = useForm<AuditFilters>({ values: filters });
  const apply = form.handleSubmit((values) => setParams(filtersToParams(values)));
  const setCount = Object.values(filters).filter(Boolean).length;
  const filtered = setCount > 0;

  return (
    <div className="admin-audit">
      <div className="admin-page-head">
        <h1>Audit log</h1>
      </div>
      <p className="muted">Who changed what, when and from where. Entries cannot be edited or deleted.</p>

      <AuditResults
        filters={filters}
        filtered={filtered}
        describeShipmentChange={describeShipmentChange}
        filterForm={
          <FilterFold id="audit-filters" activeCount={setCount}>
            <form className="card filter-form" onSubmit={apply} aria-label="Filter the audit log">
              <Field id="audit-user" label="User">
                <input id="audit-user" className="input" placeholder="E-mail or id" {...form.register('user')} />
              </Field>
              <Field id="audit-action" label="Action">
                <select id="audit-action" className="input" {...form.register('action')}>
                  <option value="">All actions</option>
                  {ACTIONS.map((action) => (
                    <option key={action.value} value={action.value}>
                      {action.label}
                    </option>
                  ))}
                </select>
              </Field>
              <Field id="audit-target" label="Shipment or user">
                <input id="audit-target" className="input" placeholder="Tracking number, id or e-mail" {...form.register('target')} />
              </Field>
              <Field id="audit-from" label="From">
                <input id="audit-from" type="date" className="input" {...form.register('from')} />
              </Field>
              <Field id="audit-to" label="To">
                <input id="audit-to" type="date" className="input" {...form.register('to')} />
              </Field>
              <FilterActions filtered={filtered} onClear={() => setParams(filtersToParams(NO_FILTERS))} />
            </form>
          </FilterFold>
        }
      />
    </div>
  );
}

/** The entries of one set of filters, with Refresh and Load more; the folded filter form opens
 * under the Filters and Refresh buttons. */
function AuditResults({
  filters,
  filtered,
  describeShipmentChange,
  filterForm,
}: {
  filters: AuditFilters;
  filtered: boolean;
  describeShipmentChange?: ChangeDescriber;
  filterForm: ReactNode;
}) {
  const { entries, loading, error, hasMore, loadMore, reload } = useAuditEntries(filters);
  return (
    <>
      <div className="admin-page-actions filter-bar">
        {filterForm}
        <button type="button" className="btn btn-outline" onClick={reload} disabled={loading}>
          <RefreshCw className={loading ? 'icon-spin' : undefined} aria-hidden="true" size={18} />
          Refresh
        </button>
      </div>
      {error && (
        <ErrorAlert message={error} />
      )}
      {loading && entries.length === 0 ? (
        <Spinner label="Loading the audit log…" />
      ) : entries.length === 0 && !error ? (
        <p className="empty-state">{filtered ? 'No entries match these filters.' : 'Nothing has been recorded yet.'}</p>
      ) : (
        <AuditEntryList entries={entries} label="Audit entries" describeShipmentChange={describeShipmentChange} />
      )}
      {hasMore && (
        <button type="button" className="btn btn-outline audit-more" onClick={loadMore} disabled={loading}>
          Load more
        </button>
      )}
    </>
  );
}
