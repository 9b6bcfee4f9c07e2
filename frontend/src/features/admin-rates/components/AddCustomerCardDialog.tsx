import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ChevronRight } from 'lucide-react';
import { ErrorAlert } from '@/components/ui/ErrorAlert';
import { Field } from '@/components/ui/Field';
import { fieldInputProps } from '@/components/ui/field-input-props';
import { Modal, ModalCancelButton } from '@/components/ui/Modal';
import { Spinner } from '@/components/ui/Spinner';
import { rateCardPath } from '@/config/routes';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { serverMessage } from '@/lib/rpc-errors';
import { useCustomerSearch } from '../api/rate-cards';

const SEARCH_DELAY_MS = 250;

/** Add a customer card: find the customer by name, then its card opens (a new one, or the one it
 * has). */
export function AddCustomerCardDialog({ cardIds, onClose }: { cardIds: ReadonlySet<string>; onClose: () => void }) {
  const [search, setSearch] = useState('');
  const query = useDebouncedValue(search.trim(), SEARCH_DELAY_MS);
  const found = useCustomerSearch(query);
  const navigate = useNavigate();
  const customers = found.data?.customers ?? [];

  return (
    <Modal title="Add a customer card" onClose={onClose}>
      <div className="form-stack rates-customer-picker">
        <Field id="rates-customer-search" label="Customer" hint="Type the company's name or account number.">
          <input
            className="input"
            type="search"
            autoComplete="off"
            maxLength={200}
            data-autofocus
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            {...fieldInputProps('rates-customer-search', undefined, "Type the company's name or account number.")}
          />
        </Field>
        {found.error && <ErrorAlert message={serverMessage(found.error, 'Failed to load customers')} />}
        {found.isPending ? (
          <Spinner size="sm" label="Loading customers…" />
        ) : customers.length === 0 ? (
          !found.error && <p className="muted">No customers match.</p>
        ) : (
          <ul className="rates-customer-results" aria-label="Customers" aria-busy={found.isFetching}>
            {customers.map((customer) => (
              <li key={customer.id}>
                <button type="button" className="rates-customer-choice" onClick={() => navigate(rateCardPath(customer.id))}>
                  <span>
                    <strong>{customer.name}</strong> <span className="muted mono">{customer.accountNumber}</span>
                  </span>
                  <span className="rates-customer-has">
                    {cardIds.has(customer.id) ? 'Has a card: open it' : 'New card'}
                    <ChevronRight className="flip-rtl" aria-hidden="true" size={16} />
                  </span>
                </button>
              </li>
            ))}
          </ul>
        )}
        <div className="modal-footer">
          <ModalCancelButton />
        </div>
      </div>
    </Modal>
  );
}
