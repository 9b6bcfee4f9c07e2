import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Send } from 'lucide-react';
import { Field, FormErrors } from '@/components/ui/Field';
import { fieldInputProps } from '@/components/ui/field-input-props';
import { SubmitButton } from '@/components/ui/SubmitButton';
import { useHydrated } from '@/hooks/use-hydrated';
import { useLanguage } from '@/hooks/use-language';
import { useMessages } from '@/lib/i18n';
import { toast } from '@/lib/toast';
import { sendContactMessage, type ContactMessage } from '../api/contact';

const DEFAULTS: ContactMessage = { name: '', email: '', subject: '', message: '', website: '' };
const FIELDS = ['name', 'email', 'subject', 'message'] as const;

// The server explains a bad field in English; other languages show their own sentence.
const FIELD_ERRORS: Record<(typeof FIELDS)[number], string> = {
  name: 'contact.error.name_invalid',
  email: 'contact.error.email_invalid',
  subject: 'contact.error.subject_invalid',
  message: 'contact.error.message_invalid',
};

/** The contact form: Name, Email, Subject, Message and Send Message; the
 * page gives it its heading (`labelledBy`). */
export function ContactForm({ labelledBy }: { labelledBy: string }) {
  const t = useMessages('contact');
  const hydrated = useHydrated();
  const english = useLanguage().language.code === 'en';
  const form = useForm<ContactMessage>({ defaultValues: DEFAULTS });
  const { register, formState } = form;
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const sending = formState.isSubmitting;

  const submit = form.handleSubmit(async (values) => {
    setFormErrors([]);
    try {
      await sendContactMessage(values);
      toast.success(t('contact.toast.success'));
      form.reset(DEFAULTS);
    } catch (error) {
      const failure = t('contact.error.failed');
      // Loaded only now, with the client, so the page's first load stays small.
      const [{ fieldViolations, serverMessage }, { Code, ConnectError }] = await Promise.all([
        import('@/lib/rpc-errors'),
        import('@connectrpc/connect'),
      ]);
      const violations = fieldViolations(error);
      violations.forEach((v, index) => {
        const name = FIELDS.find((f) => f === v.field);
        if (!name) return;
        const message = english ? `${name[0].toUpperCase()}${name.slice(1)} ${v.description}.` : t(FIELD_ERRORS[name]);
        form.setError(name, { type: 'server', message }, { shouldFocus: index === 0 });
      });
      if (violations.length === 0) {
        // A field the server refused is said at the field; only a failed send is also a toast.
        toast.error(failure);
        // Other languages: the rate limit has its own sentence, any other failure the generic one.
        const rateLimited = ConnectError.from(error).code === Code.ResourceExhausted;
        setFormErrors([english ? serverMessage(error, failure) : rateLimited ? t('contact.error.rate_limited') : failure]);
      }
    }
  });

  const err = (name: (typeof FIELDS)[number]) => formState.errors[name]?.message;

  return (
    <form className="contact-form" onSubmit={submit} aria-labelledby={labelledBy} aria-busy={sending}>
      <FormErrors messages={formErrors} />
      <Field id="contact-name" label={t('contact.form.name')} error={err('name')}>
        <input className="input" type="text" required maxLength={100} autoComplete="name" {...fieldInputProps('contact-name', err('name'))} {...register('name')} />
      </Field>
      <Field id="contact-email" label={t('contact.form.email')} error={err('email')}>
        <input className="input" type="email" required maxLength={254} autoComplete="email" {...fieldInputProps('contact-email', err('email'))} {...register('email')} />
      </Field>
      <Field id="contact-subject" label={t('contact.form.subject')} error={err('subject')}>
        <input className="input" type="text" required maxLength={200} {...fieldInputProps('contact-subject', err('subject'))} {...register('subject')} />
      </Field>
      <Field id="contact-message" label={t('contact.form.message')} error={err('message')}>
        <textarea className="input" rows={4} required maxLength={5000} {...fieldInputProps('contact-message', err('message'))} {...register('message')} />
      </Field>
      {/* A field people never see or reach; robots fill it, and the server drops their message. */}
      <div className="contact-website" aria-hidden="true">
        <label htmlFor="contact-website">{t('contact.form.website')}</label>
        <input id="contact-website" type="text" tabIndex={-1} autoComplete="off" {...register('website')} />
      </div>
      <div className="form-actions">
        {/* Until the script takes over, a tap would send the message in the page's address. */}
        <SubmitButton busy={sending} disabled={!hydrated} busyLabel={t('contact.form.sending')}>
          <Send aria-hidden="true" size={18} className="flip-rtl" />
          {t('contact.form.submit')}
        </SubmitButton>
      </div>
    </form>
  );
}
