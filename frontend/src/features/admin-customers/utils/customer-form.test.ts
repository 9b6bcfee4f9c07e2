import { describe, expect, it } from 'vitest';
import { create } from '@bufbuild/protobuf';
import { CustomerSchema, CustomerStatus } from '@/gen/logistics/v1/customer_pb';
import { PaymentMode } from '@/gen/logistics/v1/shipment_pb';
import {
  blankCustomerForm,
  buildCustomerUpdate,
  customerFieldForViolation,
  customerToForm,
  formToNewCustomer,
} from './customer-form';
import { customerParamsFrom, customerParamsTo, statusFilter } from './list-params';

const stored = create(CustomerSchema, {
  id: 'c1',
  name: 'Acme Ltd',
  accountNumber: 'C00000042',
  billingAddress: '1 Main St\nTema',
  contacts: [{ name: 'Ama', email: 'ama@acme.test', phone: '+233 20 000 0000' }],
  defaultPaymentMode: PaymentMode.CASH,
  status: CustomerStatus.ACTIVE,
});

describe('the customer dialog', () => {
  it('creates a customer from trimmed values, active, without payment mode when none is chosen', () => {
    const values = { ...blankCustomerForm(), name: '  Acme  ', contacts: [{ name: ' Ama ', email: ' a@b.test ', phone: '' }] };
    expect(formToNewCustomer(values)).toEqual({
      name: 'Acme',
      accountNumber: '',
      billingAddress: '',
      contacts: [{ name: 'Ama', email: 'a@b.test', phone: '' }],
      defaultPaymentMode: PaymentMode.UNSPECIFIED,
      status: CustomerStatus.ACTIVE,
    });
  });

  it('sends only what changed, by the proto names of the mask', () => {
    const unchanged = customerToForm(stored);
    expect(buildCustomerUpdate(stored, unchanged).paths).toEqual([]);
    // The server keeps account numbers in upper case: the same one typed in lower case is no change.
    expect(buildCustomerUpdate(stored, { ...unchanged, accountNumber: 'c00000042' }).paths).toEqual([]);
    const edited = {
      ...unchanged,
      name: 'Acme Group',
      contacts: [...unchanged.contacts, { name: 'Kofi', email: '', phone: '' }],
      defaultPaymentMode: 'bank_transfer',
      status: 'suspended' as const,
    };
    const update = buildCustomerUpdate(stored, edited);
    expect(update.paths).toEqual(['name', 'contacts', 'default_payment_mode', 'status']);
    expect(update.customer).toMatchObject({
      id: 'c1',
      name: 'Acme Group',
      defaultPaymentMode: PaymentMode.BANK_TRANSFER,
      status: CustomerStatus.SUSPENDED,
    });
    expect(update.customer.billingAddress).toBeUndefined();
  });

  it("puts the server's violations at their inputs", () => {
    expect(customerFieldForViolation('customer.name')).toBe('name');
    expect(customerFieldForViolation('customer.account_number')).toBe('accountNumber');
    expect(customerFieldForViolation('customer.contacts[0].email')).toBe('contacts.0.email');
    expect(customerFieldForViolation('customer.contacts')).toBe('contacts');
    expect(customerFieldForViolation('customer.contacts[10]')).toBe('contacts');
    expect(customerFieldForViolation('customer.default_payment_mode')).toBe('defaultPaymentMode');
    expect(customerFieldForViolation('update_mask')).toBeNull();
  });
});

describe('the customers list in the address', () => {
  it('round-trips the search, the status and the page', () => {
    const search = new URLSearchParams('q=acme&status=suspended&page=2&after=tok');
    const params = customerParamsFrom(search);
    expect(params).toEqual({ q: 'acme', status: 'suspended', after: 'tok', page: 2 });
    expect(customerParamsTo(params).toString()).toBe(search.toString());
    expect(statusFilter(params.status)).toBe(CustomerStatus.SUSPENDED);
  });

  it('drops what it does not know and starts at page 1 without a token', () => {
    const params = customerParamsFrom(new URLSearchParams('status=gone&page=3'));
    expect(params).toMatchObject({ status: 'all', page: 1 });
    expect(customerParamsTo(params).toString()).toBe('');
    expect(statusFilter('all')).toBe(CustomerStatus.UNSPECIFIED);
  });
});
