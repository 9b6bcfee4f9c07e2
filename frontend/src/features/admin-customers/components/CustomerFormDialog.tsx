import { useState } from 'react';
import { useFieldArray, useForm, type FieldPath } from 'react-hook-form';
import { Plus, Trash2 } from 'lucide-react';
import type { Customer } from '@/gen/logistics/v1/customer_pb';
import { Field, FormErrors } from '@/components/ui/Field';
import { fieldInputProps } from '@/components/ui/field-input-props';
import { Modal, ModalCancelButton } from '@/components/ui/Modal';
import { SubmitButton } from '@/components/ui/SubmitButton';
import { fieldViolations, serverMessage } from '@/lib/rpc-errors';
import { toast } from '@/lib/toast';
import { PAYMENT_OPTIONS } from '@/utils/shipment';
import { useCreateCustomer, useUpdateCustomer } from '../api/customers';
import {
  MAX_CONTACTS,
  STATUS_CHOICES,
  blankContact,
  blankCustomerForm,
  buildCustomerUpdate,
  customerFieldForViolation,
  customerToForm,
  formToNewCustomer,
  type CustomerFormValues,
} from '../utils/customer-form';

type Props = {
  /** The customer to edit; none: a new one. */
  customer?: Customer;
  onClose: () => void;
  onSaved: (customer: Customer) => void;
};

/** New customer / Edit customer: company, account number, billing address, up to 10 contacts,
 * default payment mode and status; the server's field violations shown at their inputs. */
export function CustomerFormDialog({ customer, onClose, onSaved }: Props) {
  const editing = customer !== undefined;
  const form = useForm<CustomerFormValues>({ defaultValues: customer ? customerToForm(customer) : blankCustomerForm() });
  const { register, formState, control } = form;
  const contacts = useFieldArray({ control, name: 'contacts' });
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const createCustomer = useCreateCustomer();
  const updateCustomer = useUpdateCustomer();
  const saving = formState.isSubmitting;

  const submit = form.handleSubmit(async (values) => {
    setFormErrors([]);
    try {
      let saved: Customer;
      if (customer) {
        const update = buildCustomerUpdate(customer, values);
        saved = update.paths.length === 0 ? customer : await updateCustomer({ customer: update.customer, updateMask: { paths: update.paths } });
        toast.success(`Customer ${saved.name} saved`);
      } else {
        saved = await createCustomer({ customer: formToNewCustomer(values) });
        toast.success(`Customer ${saved.name} created`);
      }
      onSaved(saved);
    } catch (error) {
      const fallback = editing ? 'Failed to save the customer' : 'Failed to create the customer';
      toast.error(serverMessage(error, fallback));
      const violations = fieldViolations(error);
      const general: string[] = [];
      let focused = false;
      for (const { field, description } of violations) {
        const name = customerFieldForViolation(field);
        if (name === 'contacts') form.setError('contacts', { type: 'server', message: description });
        else if (name) {
          form.setError(name as FieldPath<CustomerFormValues>, { type: 'server', message: description }, { shouldFocus: !focused });
          focused = true;
        } else general.push(description);
      }
      setFormErrors(violations.length === 0 ? [serverMessage(error, fallback)] : general);
    }
  });

  const errorOf = (name: FieldPath<CustomerFormValues>) => form.getFieldState(name, formState).error?.message;
  const contactsError = formState.errors.contacts?.root?.message ?? formState.errors.contacts?.message;
  const accountHint = editing ? undefined : 'Assigned automatically when empty';

  return (
    <Modal title={editing ? `Edit ${customer.name}` : 'New customer'} onClose={onClose} size="lg" busy={saving} dirty={formState.isDirty}>
      <form onSubmit={submit} aria-busy={saving} className="customer-form" noValidate>
        <FormErrors messages={formErrors} />
        <div className="form-grid">
          <Field id="customer-name" label="Company name" error={errorOf('name')}>
            <input className="input" type="text" autoComplete="off" data-autofocus {...fieldInputProps('customer-name', errorOf('name'))} {...register('name')} />
          </Field>
          <Field id="customer-account" label="Account number" error={errorOf('accountNumber')} hint={accountHint}>
            <input
              className="input mono"
              type="text"
              autoComplete="off"
              maxLength={30}
              {...fieldInputProps('customer-account', errorOf('accountNumber'), accountHint)}
              {...register('accountNumber')}
            />
          </Field>
          <Field id="customer-billing" label="Billing address" error={errorOf('billingAddress')} className="field-wide">
            <textarea className="textarea" rows={3} maxLength={500} {...fieldInputProps('customer-billing', errorOf('billingAddress'))} {...register('billingAddress')} />
          </Field>
          <Field id="customer-payment" label="Default payment mode" error={errorOf('defaultPaymentMode')}>
            <select className="select" {...fieldInputProps('customer-payment', errorOf('defaultPaymentMode'))} {...register('defaultPaymentMode')}>
              <option value="">Not specified</option>
              {PAYMENT_OPTIONS.map((o) => (
                <option key={o.key} value={o.key}>
                  {o.label}
                </option>
              ))}
            </select>
          </Field>
          <Field id="customer-status-input" label="Status" error={errorOf('status')}>
            <select className="select" {...fieldInputProps('customer-status-input', errorOf('status'))} {...register('status')}>
              {STATUS_CHOICES.map((s) => (
                <option key={s.key} value={s.key}>
                  {s.label}
                </option>
              ))}
            </select>
          </Field>
        </div>

        <fieldset className="form-section customer-contacts">
          <legend>Contacts</legend>
          {contactsError && <p className="field-error">{contactsError}</p>}
          {contacts.fields.length === 0 && <p className="muted">No contacts.</p>}
          <ol className="contact-rows">
            {contacts.fields.map((row, index) => (
              <li key={row.id}>
                <fieldset className="contact-row">
                  <legend>Contact {index + 1}</legend>
                  <div className="form-grid form-grid-3">
                    {(['name', 'email', 'phone'] as const).map((part) => {
                      const name = `contacts.${index}.${part}` as const;
                      const id = `customer-contact-${index}-${part}`;
                      const label = part === 'name' ? 'Name' : part === 'email' ? 'E-mail' : 'Phone';
                      return (
                        <Field key={part} id={id} label={label} error={errorOf(name)}>
                          <input
                            className="input"
                            type={part === 'email' ? 'email' : part === 'phone' ? 'tel' : 'text'}
                            autoComplete="off"
                            {...fieldInputProps(id, errorOf(name))}
                            {...register(name)}
                          />
                        </Field>
                      );
                    })}
                  </div>
                  <button
                    type="button"
                    className="btn btn-outline btn-sm"
                    aria-label={`Remove contact ${index + 1}`}
                    onClick={() => contacts.remove(index)}
                  >
                    <Trash2 aria-hidden="true" size={16} />
                    Remove
                  </button>
                </fieldset>
              </li>
            ))}
          </ol>
          <button
            type="button"
            className="btn btn-outline btn-sm"
            disabled={contacts.fields.length >= MAX_CONTACTS}
            onClick={() => contacts.append(blankContact())}
          >
            <Plus aria-hidden="true" size={16} />
            Add contact
          </button>
          {contacts.fields.length >= MAX_CONTACTS && <p className="field-hint">A customer keeps up to {MAX_CONTACTS} contacts.</p>}
        </fieldset>

        <div className="modal-footer">
          <ModalCancelButton disabled={saving} />
          <SubmitButton busy={saving} busyLabel={editing ? 'Saving...' : 'Creating...'}>
            {editing ? 'Save' : 'Create customer'}
          </SubmitButton>
        </div>
      </form>
    </Modal>
  );
}
