// The request form's one call, public and rate-limited. The Connect client is imported on
// first send, so the prerendered page itself does not load it.
import type { LanguageCode } from '@/config/languages';

/** What the visitor types; every value is sent trimmed. */
export type AccountRequestForm = {
  companyName: string;
  contactName: string;
  email: string;
  phone: string;
  address: string;
  message: string;
};

export type AccountRequestField = keyof AccountRequestForm;

// The server's names of the fields (its violations say `account_request.email`).
const SERVER_FIELDS: Record<string, AccountRequestField> = {
  'account_request.company_name': 'companyName',
  'account_request.contact_name': 'contactName',
  'account_request.email': 'email',
  'account_request.phone': 'phone',
  'account_request.address': 'address',
  'account_request.message': 'message',
};

/** The form's field a server field violation names, if it is one of the form's. */
export function formFieldOf(serverField: string): AccountRequestField | undefined {
  return SERVER_FIELDS[serverField];
}

// As loose as the server's check: something@something.something, no spaces.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The client's own check of an e-mail address, before anything is sent. */
export function looksLikeEmail(value: string): boolean {
  return EMAIL.test(value.trim());
}

/** The request as the server takes it: trimmed values, in the page's language. */
export function toAccountRequest(form: AccountRequestForm, languageCode: LanguageCode) {
  return {
    companyName: form.companyName.trim(),
    contactName: form.contactName.trim(),
    email: form.email.trim(),
    phone: form.phone.trim(),
    address: form.address.trim(),
    message: form.message.trim(),
    languageCode,
  };
}

export async function sendAccountRequest(form: AccountRequestForm, languageCode: LanguageCode): Promise<void> {
  const [{ createClient }, { transport }, { CustomerService }] = await Promise.all([
    import('@connectrpc/connect'),
    import('@/lib/transport'),
    import('@/gen/logistics/v1/customer_service_pb'),
  ]);
  await createClient(CustomerService, transport).createAccountRequest(
    { accountRequest: toAccountRequest(form, languageCode) },
    { timeoutMs: 15_000 },
  );
}
