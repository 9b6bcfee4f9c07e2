import { describe, expect, it } from 'vitest';
import { formFieldOf, looksLikeEmail, toAccountRequest } from './account-request';

describe('the account request form', () => {
  it("maps the server's field names onto the form's", () => {
    expect(formFieldOf('account_request.company_name')).toBe('companyName');
    expect(formFieldOf('account_request.email')).toBe('email');
    expect(formFieldOf('account_request.message')).toBe('message');
    expect(formFieldOf('account_request.language_code')).toBeUndefined();
    expect(formFieldOf('email')).toBeUndefined();
  });

  it('accepts an address with a domain and refuses others', () => {
    expect(looksLikeEmail('ops@acme.example')).toBe(true);
    expect(looksLikeEmail('  ops@acme.example ')).toBe(true);
    for (const bad of ['', 'ops', 'ops@acme', '@acme.example', 'o ps@acme.example', 'ops@@acme.example']) {
      expect(looksLikeEmail(bad), bad).toBe(false);
    }
  });

  it("sends trimmed values in the page's language", () => {
    const form = { companyName: ' Acme ', contactName: 'Ana ', email: ' ana@acme.example', phone: '', address: ' ', message: ' weekly ' };
    expect(toAccountRequest(form, 'es')).toEqual({
      companyName: 'Acme',
      contactName: 'Ana',
      email: 'ana@acme.example',
      phone: '',
      address: '',
      message: 'weekly',
      languageCode: 'es',
    });
  });
});
