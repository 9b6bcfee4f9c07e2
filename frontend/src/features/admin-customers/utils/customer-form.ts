// The customer dialog's values ↔ the Customer message, the update mask of an edit, and where the
// server's field violations go in the form.
import type { MessageInitShape } from '@bufbuild/protobuf';
import { CustomerStatus, type Customer, type CustomerSchema } from '@/gen/logistics/v1/customer_pb';
import { PaymentMode } from '@/gen/logistics/v1/shipment_pb';
import { PAYMENT_OPTIONS, keyOf, valueOf } from '@/utils/shipment';

/** The most contacts a customer keeps (customer.proto). */
export const MAX_CONTACTS = 10;

export type ContactFormValues = { name: string; email: string; phone: string };

export type CustomerFormValues = {
  name: string;
  accountNumber: string;
  billingAddress: string;
  contacts: ContactFormValues[];
  /** A PAYMENT_OPTIONS key, '' for none. */
  defaultPaymentMode: string;
  status: StatusKey;
};

export type StatusKey = 'active' | 'suspended';

export const STATUS_CHOICES: ReadonlyArray<{ key: StatusKey; value: CustomerStatus; label: string }> = [
  { key: 'active', value: CustomerStatus.ACTIVE, label: 'Active' },
  { key: 'suspended', value: CustomerStatus.SUSPENDED, label: 'Suspended' },
];

function statusKeyOf(status: CustomerStatus): StatusKey {
  return status === CustomerStatus.SUSPENDED ? 'suspended' : 'active';
}

export function customerStatusLabel(status: CustomerStatus): string {
  return status === CustomerStatus.SUSPENDED ? 'Suspended' : 'Active';
}

export type CustomerInit = MessageInitShape<typeof CustomerSchema>;

export function blankContact(): ContactFormValues {
  return { name: '', email: '', phone: '' };
}

/** A new customer: active, no contacts, no payment mode. */
export function blankCustomerForm(): CustomerFormValues {
  return { name: '', accountNumber: '', billingAddress: '', contacts: [], defaultPaymentMode: '', status: 'active' };
}

export function customerToForm(c: Customer): CustomerFormValues {
  return {
    name: c.name,
    accountNumber: c.accountNumber,
    billingAddress: c.billingAddress,
    contacts: c.contacts.map(({ name, email, phone }) => ({ name, email, phone })),
    defaultPaymentMode: c.defaultPaymentMode === PaymentMode.UNSPECIFIED ? '' : keyOf(PAYMENT_OPTIONS, c.defaultPaymentMode),
    status: statusKeyOf(c.status),
  };
}

function contactsOf(v: CustomerFormValues): ContactFormValues[] {
  return v.contacts.map((c) => ({ name: c.name.trim(), email: c.email.trim(), phone: c.phone.trim() }));
}

function fieldsOf(v: CustomerFormValues) {
  return {
    name: v.name.trim(),
    // The server stores it in upper case; empty at creation assigns one.
    accountNumber: v.accountNumber.trim(),
    billingAddress: v.billingAddress.trim(),
    contacts: contactsOf(v),
    defaultPaymentMode: v.defaultPaymentMode ? valueOf(PAYMENT_OPTIONS, v.defaultPaymentMode) : PaymentMode.UNSPECIFIED,
    status: STATUS_CHOICES.find((s) => s.key === v.status)?.value ?? CustomerStatus.ACTIVE,
  };
}

/** The CreateCustomer payload. */
export function formToNewCustomer(v: CustomerFormValues): CustomerInit {
  return fieldsOf(v);
}

/** The UpdateCustomer request for an edit: the mask names exactly the fields that changed. */
export function buildCustomerUpdate(stored: Customer, v: CustomerFormValues): { customer: CustomerInit; paths: string[] } {
  const next = fieldsOf(v);
  const customer: Record<string, unknown> = { id: stored.id };
  const paths: string[] = [];
  const change = (field: keyof typeof next, path: string, same: boolean) => {
    if (same) return;
    customer[field] = next[field];
    paths.push(path);
  };
  change('name', 'name', next.name === stored.name);
  change('accountNumber', 'account_number', next.accountNumber.toUpperCase() === stored.accountNumber);
  change('billingAddress', 'billing_address', next.billingAddress === stored.billingAddress);
  change(
    'contacts',
    'contacts',
    next.contacts.length === stored.contacts.length &&
      next.contacts.every((c, i) => c.name === stored.contacts[i].name && c.email === stored.contacts[i].email && c.phone === stored.contacts[i].phone),
  );
  change('defaultPaymentMode', 'default_payment_mode', next.defaultPaymentMode === stored.defaultPaymentMode);
  change('status', 'status', next.status === stored.status);
  return { customer: customer as CustomerInit, paths };
}

const FORM_FIELDS: Readonly<Record<string, keyof CustomerFormValues>> = {
  name: 'name',
  account_number: 'accountNumber',
  accountNumber: 'accountNumber',
  billing_address: 'billingAddress',
  billingAddress: 'billingAddress',
  contacts: 'contacts',
  default_payment_mode: 'defaultPaymentMode',
  defaultPaymentMode: 'defaultPaymentMode',
  status: 'status',
};

const CONTACT_FIELDS = new Set(['name', 'email', 'phone']);

/** The form input that shows a violation: "customer.name" → "name", "customer.contacts[0].email"
 * → "contacts.0.email", "customer.contacts" → "contacts"; null when the form has none. */
export function customerFieldForViolation(path: string): string | null {
  const segments = path
    .trim()
    .replace(/^customer\./, '')
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter(Boolean);
  const field = FORM_FIELDS[segments[0] ?? ''];
  if (!field) return null;
  if (field !== 'contacts') return field;
  const [, index, sub] = segments;
  return index !== undefined && /^\d+$/.test(index) && sub && CONTACT_FIELDS.has(sub) ? `contacts.${index}.${sub}` : 'contacts';
}
