import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Send } from 'lucide-react';
import { Field, FormErrors } from '@/components/ui/Field';
import { fieldInputProps } from '@/components/ui/field-input-props';
import { SubmitButton } from '@/components/ui/SubmitButton';
import { toast } from '@/lib/toast';
import { sendContactMessage, type ContactMessage } from '../api/contact';

const CONTACT_SUCCESS_MESSAGE = 'Message sent successfully!';
const CONTACT_FAILURE_MESSAGE = 'Failed to send message. Please try again.';

const DEFAULTS: ContactMessage = { name: '', email: '', subject: '', message: '', website: '' };
const FIELDS = ['name', 'email', 'subject', 'message'] as const;

/** The contact form: Name, Email, Subject, Message and Send Message (spec §2 Contact); the
 * page gives it its heading (`labelledBy`). */
export function ContactForm({ labelledBy }: { labelledBy: string }) {
  const form = useForm<ContactMessage>({ defaultValues: DEFAULTS });
  const { register, formState } = form;
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const sending = formState.isSubmitting;

  const submit = form.handleSubmit(async (values) => {
    setFormErrors([]);
    try {
      await sendContactMessage(values);
      toast.success(CONTACT_SUCCESS_MESSAGE);
      form.reset(DEFAULTS);
    } catch (error) {
      toast.error(CONTACT_FAILURE_MESSAGE);
      // Loaded only now, with the client, so the page's first load stays small.
      const { fieldViolations, serverMessage } = await import('@/lib/rpc-errors');
      const violations = fieldViolations(error);
      for (const v of violations) {
        const name = FIELDS.find((f) => f === v.field);
        if (name) form.setError(name, { type: 'server', message: `${name[0].toUpperCase()}${name.slice(1)} ${v.description}.` });
      }
      if (violations.length === 0) setFormErrors([serverMessage(error, CONTACT_FAILURE_MESSAGE)]);
    }
  });

  const err = (name: (typeof FIELDS)[number]) => formState.errors[name]?.message;

  return (
    <form className="contact-form" onSubmit={submit} aria-labelledby={labelledBy} aria-busy={sending}>
      <FormErrors messages={formErrors} />
      <Field id="contact-name" label="Name" error={err('name')}>
        <input className="input" type="text" required maxLength={100} autoComplete="name" {...fieldInputProps('contact-name', err('name'))} {...register('name')} />
      </Field>
      <Field id="contact-email" label="Email" error={err('email')}>
        <input className="input" type="email" required maxLength={254} autoComplete="email" {...fieldInputProps('contact-email', err('email'))} {...register('email')} />
      </Field>
      <Field id="contact-subject" label="Subject" error={err('subject')}>
        <input className="input" type="text" required maxLength={200} {...fieldInputProps('contact-subject', err('subject'))} {...register('subject')} />
      </Field>
      <Field id="contact-message" label="Message" error={err('message')}>
        <textarea className="input" rows={4} required maxLength={5000} {...fieldInputProps('contact-message', err('message'))} {...register('message')} />
      </Field>
      {/* A field people never see or reach; robots fill it, and the server drops their message. */}
      <div className="contact-website" aria-hidden="true">
        <label htmlFor="contact-website">Website</label>
        <input id="contact-website" type="text" tabIndex={-1} autoComplete="off" {...register('website')} />
      </div>
      <div className="form-actions">
        <SubmitButton busy={sending} busyLabel="Sending...">
          <Send aria-hidden="true" size={18} />
          Send Message
        </SubmitButton>
      </div>
    </form>
  );
}
