import { useState } from 'react';
import { useWatch, type UseFormReturn } from 'react-hook-form';
import { keepPreviousData } from '@tanstack/react-query';
import { useQuery } from '@connectrpc/connect-query';
import { CustomerService } from '@/gen/logistics/v1/customer_service_pb';
import { Field } from '@/components/ui/Field';
import { fieldInputProps } from '@/components/ui/field-input-props';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { useCustomerName } from '../api/shipments';
import type { ShipmentFormValues } from '../utils/shipment-form';

/** How many matches the select offers at once; the search narrows them. */
const SHOWN = 50;

type Props = { form: UseFormReturn<ShipmentFormValues>; name: 'customerId'; id: string; label: string; error?: string };

/** The shipment's customer: a search by name or account number and a select of the matches
 * (the chosen one always among them), "None" for no customer. */
export function CustomerPicker({ form, name, id, label, error }: Props) {
  const value = useWatch({ control: form.control, name });
  const [search, setSearch] = useState('');
  const query = useDebouncedValue(search.trim(), 300);
  const matches = useQuery(
    CustomerService.method.listCustomers,
    { query, pageSize: SHOWN },
    { placeholderData: keepPreviousData },
  );
  const chosenName = useCustomerName(value);
  const found = matches.data?.customers ?? [];
  const options = found.map((c) => ({ id: c.id, label: `${c.name} (${c.accountNumber})` }));
  if (value && !found.some((c) => c.id === value)) {
    options.unshift({ id: value, label: chosenName ?? value });
  }
  const searchId = `${id}-search`;
  return (
    <div className="customer-picker field-wide">
      <div className="field">
        <label htmlFor={searchId} className="field-label">
          Find a customer
        </label>
        <input
          id={searchId}
          type="search"
          className="input"
          placeholder="Name or account number"
          maxLength={200}
          autoComplete="off"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
      </div>
      <Field id={id} label={label} error={error}>
        <select
          className="select"
          {...fieldInputProps(id, error)}
          {...form.register(name)}
          // Controlled, so the chosen customer stays chosen while the matches change under it.
          value={value}
          aria-busy={matches.isFetching || undefined}
        >
          <option value="">None</option>
          {options.map((o) => (
            <option key={o.id} value={o.id}>
              {o.label}
            </option>
          ))}
        </select>
      </Field>
    </div>
  );
}
