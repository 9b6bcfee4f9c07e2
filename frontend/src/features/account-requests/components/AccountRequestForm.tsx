import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { CheckCircle2, Send } from 'lucide-react';
import { Field, FormErrors } from '@/components/ui/Field';
import { fieldInputProps } from '@/components/ui/field-input-props';
import { SubmitButton } from '@/components/ui/SubmitButton';
import { useHydrated } from '@/hooks/use-hydrated';
import { useLanguage } from '@/hooks/use-language';
import { useMessages } from '@/lib/i18n';
import { formFieldOf, looksLikeEmail, sendAccountRequest, type AccountRequestField, type AccountRequestForm as Values } from '../api/account-request';

const DEFAULTS: Values = { companyName: '', contactName: '', email: '', phone: '', address: '', message: '' };

// The server explains a bad field in English; other languages show their own sentence.
const INVALID: Record<AccountRequestField, string> = {
  companyName: 'ship_with_us.error.company_name_invalid',
  contactName: 'ship_with_us.error.contact_name_invalid',
  email: 'ship_with_us.error.email_invalid',
  phone: 'ship_with_us.error.phone_invalid',
  address: 'ship_with_us.error.address_invalid',
  message: 'ship_with_us.error.message_invalid',
};

/** The "Request an account" form; the page gives it its heading (`labelledBy`). Once sent, the
 * form gives way to the thank-you sentence. */
export function AccountRequestForm({ labelledBy }: { labelledBy: string }) {
  const t = useMessages('ship_with_us');
  const { language } = useLanguage();
  const english = language.code === 'en';
  const form = useForm<Values>({ defaultValues: DEFAULTS });
  const { register, formState } = form;
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const [sent, setSent] = useState(false);
  const thanks = useRef<HTMLParagraphElement>(null);
  const sending = formState.isSubmitting;
  // Until React runs the form, a press would submit the static HTML (its values in the URL).
  const hydrated = useHydrated();

  // The form the visitor was in is gone: the thank-you takes the focus, so it is read out.
  useEffect(() => {
    if (sent) thanks.current?.focus();
  }, [sent]);

  const submit = form.handleSubmit(async (values) => {
    setFormErrors([]);
    try {
      await sendAccountRequest(values, language.code);
      setSent(true);
    } catch (error) {
      const failure = t('ship_with_us.error.failed');
      // Loaded only now, with the client, so the page's first load stays small.
      const [{ fieldViolations, serverMessage }, { Code, ConnectError }] = await Promise.all([
        import('@/lib/rpc-errors'),
        import('@connectrpc/connect'),
      ]);
      let placed = 0;
      for (const violation of fieldViolations(error)) {
        const name = formFieldOf(violation.field);
        if (!name) continue;
        form.setError(name, { type: 'server', message: english ? violation.description : t(INVALID[name]) }, { shouldFocus: placed === 0 });
        placed += 1;
      }
      if (placed === 0) {
        // English shows the server's own sentence (the rate limit's included); other languages
        // their translation of it.
        const rateLimited = ConnectError.from(error).code === Code.ResourceExhausted;
        setFormErrors([english ? serverMessage(error, failure) : rateLimited ? t('ship_with_us.error.rate_limited') : failure]);
      }
    }
  });

  if (sent) {
    return (
      <p ref={thanks} className="alert account-request-thanks" role="status" tabIndex={-1}>
        <CheckCircle2 aria-hidden="true" size={22} />
        {t('ship_with_us.form.success')}
      </p>
    );
  }

  const err = (name: AccountRequestField) => formState.errors[name]?.message;
  const required = (message: string) => ({ validate: (value: string) => value.trim() !== '' || message });

  return (
    <form className="form-stack" onSubmit={submit} aria-labelledby={labelledBy} aria-busy={sending} noValidate>
      <FormErrors messages={formErrors} />
      <div className="form-grid">
        <Field id="request-company" label={t('ship_with_us.form.company_name')} error={err('companyName')}>
          <input
            className="input"
            type="text"
            required
            maxLength={200}
            autoComplete="organization"
            {...fieldInputProps('request-company', err('companyName'))}
            {...register('companyName', required(t('ship_with_us.error.company_name_required')))}
          />
        </Field>
        <Field id="request-contact" label={t('ship_with_us.form.contact_name')} error={err('contactName')}>
          <input
            className="input"
            type="text"
            required
            maxLength={100}
            autoComplete="name"
            {...fieldInputProps('request-contact', err('contactName'))}
            {...register('contactName', required(t('ship_with_us.error.contact_name_required')))}
          />
        </Field>
        <Field id="request-email" label={t('ship_with_us.form.email')} error={err('email')}>
          <input
            className="input"
            type="email"
            required
            maxLength={254}
            autoComplete="email"
            dir="ltr"
            {...fieldInputProps('request-email', err('email'))}
            {...register('email', {
              validate: (value) =>
                value.trim() === '' ? t('ship_with_us.error.email_required') : looksLikeEmail(value) || t('ship_with_us.error.email_invalid'),
            })}
          />
        </Field>
        <Field id="request-phone" label={t('ship_with_us.form.phone')} error={err('phone')}>
          <input
            className="input"
            type="tel"
            maxLength={30}
            autoComplete="tel"
            dir="ltr"
            {...fieldInputProps('request-phone', err('phone'))}
            {...register('phone')}
          />
        </Field>
      </div>
      <Field id="request-address" label={t('ship_with_us.form.address')} error={err('address')}>
        <textarea className="input" rows={2} maxLength={500} autoComplete="street-address" {...fieldInputProps('request-address', err('address'))} {...register('address')} />
      </Field>
      <Field id="request-message" label={t('ship_with_us.form.message')} error={err('message')}>
        <textarea className="input" rows={4} maxLength={2000} {...fieldInputProps('request-message', err('message'))} {...register('message')} />
      </Field>
      <div className="form-actions">
        <SubmitButton busy={sending} disabled={!hydrated} busyLabel={t('ship_with_us.form.sending')}>
          <Send aria-hidden="true" size={18} className="flip-rtl" />
          {t('ship_with_us.form.submit')}
        </SubmitButton>
      </div>
    </form>
  );
}
