import { useState } from 'react';
import { useForm, type FieldPath } from 'react-hook-form';
import type { Customer } from '@/gen/logistics/v1/customer_pb';
import { Role } from '@/gen/logistics/v1/user_pb';
import { Field, FormErrors } from '@/components/ui/Field';
import { fieldInputProps } from '@/components/ui/field-input-props';
import { Modal, ModalCancelButton } from '@/components/ui/Modal';
import { SubmitButton } from '@/components/ui/SubmitButton';
import { LANGUAGES } from '@/config/languages';
import { currentLanguage } from '@/lib/i18n';
import { fieldViolations, serverMessage } from '@/lib/rpc-errors';
import { toast } from '@/lib/toast';
import { useInviteUser } from '../api/customers';
import { CUSTOMER_ROLES } from '../utils/customer-roles';

type Values = { email: string; name: string; role: string; language: string };

/** Where the server's violations go: "invitation.email" → email. */
const INPUTS: Readonly<Record<string, FieldPath<Values>>> = {
  email: 'email',
  name: 'name',
  role: 'role',
  language_code: 'language',
};

/** Invite user: e-mails a customer's new user a link to set a password. */
export function InviteUserDialog({ customer, onClose }: { customer: Customer; onClose: () => void }) {
  const form = useForm<Values>({
    defaultValues: { email: '', name: '', role: String(Role.CUSTOMER_USER), language: currentLanguage() },
  });
  const { register, formState } = form;
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const invite = useInviteUser();
  const saving = formState.isSubmitting;

  const submit = form.handleSubmit(async (values) => {
    setFormErrors([]);
    try {
      const email = values.email.trim();
      await invite({
        invitation: { customerId: customer.id, email, name: values.name.trim(), role: Number(values.role) as Role },
        languageCode: values.language,
      });
      toast.success(`Invitation sent to ${email}`);
      onClose();
    } catch (error) {
      const message = serverMessage(error, 'Failed to send the invitation');
      toast.error(message);
      const violations = fieldViolations(error);
      const general: string[] = [];
      for (const { field, description } of violations) {
        const name = INPUTS[field.replace(/^invitation\./, '')];
        if (name) form.setError(name, { type: 'server', message: description });
        else general.push(description);
      }
      setFormErrors(violations.length === 0 ? [message] : general);
    }
  });

  const err = (name: keyof Values) => formState.errors[name]?.message;

  return (
    <Modal title={`Invite a user of ${customer.name}`} onClose={onClose} busy={saving} dirty={formState.isDirty}>
      <form onSubmit={submit} aria-busy={saving} noValidate>
        <FormErrors messages={formErrors} />
        <p className="muted">They get an e-mail with a link to set their password; it works once, for 48 hours.</p>
        <div className="form-grid">
          <Field id="invite-email" label="E-mail" error={err('email')}>
            <input className="input" type="email" autoComplete="off" data-autofocus {...fieldInputProps('invite-email', err('email'))} {...register('email')} />
          </Field>
          <Field id="invite-name" label="Name" error={err('name')}>
            <input className="input" type="text" autoComplete="off" {...fieldInputProps('invite-name', err('name'))} {...register('name')} />
          </Field>
          <Field id="invite-role" label="Role" error={err('role')}>
            <select className="select" {...fieldInputProps('invite-role', err('role'))} {...register('role')}>
              {CUSTOMER_ROLES.map(({ role, label }) => (
                <option key={role} value={String(role)}>
                  {label}
                </option>
              ))}
            </select>
          </Field>
          <Field id="invite-language" label="Language of the e-mail" error={err('language')}>
            <select className="select" {...fieldInputProps('invite-language', err('language'))} {...register('language')}>
              {LANGUAGES.map((l) => (
                <option key={l.code} value={l.code} lang={l.code}>
                  {l.name}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <div className="modal-footer">
          <ModalCancelButton disabled={saving} />
          <SubmitButton busy={saving} busyLabel="Sending...">
            Send invitation
          </SubmitButton>
        </div>
      </form>
    </Modal>
  );
}
