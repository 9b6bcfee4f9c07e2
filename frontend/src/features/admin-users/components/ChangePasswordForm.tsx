import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { KeyRound } from 'lucide-react';
import { SubmitButton } from '@/components/ui/SubmitButton';
import { Field, FormErrors } from '@/components/ui/Field';
import { fieldInputProps } from '@/components/ui/field-input-props';
import { serverMessage } from '@/lib/rpc-errors';
import { toast } from '@/lib/toast';
import { changePassword } from '../api/users';
import { MIN_PASSWORD_LENGTH } from './CreateUserForm';

const PASSWORD_CHANGED_MESSAGE = 'Password changed successfully';
const PASSWORD_CHANGE_FAILED_MESSAGE = 'Failed to change password';

type Values = { currentPassword: string; newPassword: string };

/** The signed-in admin changes their own password. */
export function ChangePasswordForm() {
  const form = useForm<Values>({ defaultValues: { currentPassword: '', newPassword: '' } });
  const { register, formState } = form;
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const saving = formState.isSubmitting;

  const submit = form.handleSubmit(async (values) => {
    setFormErrors([]);
    try {
      await changePassword(values.currentPassword, values.newPassword);
      toast.success(PASSWORD_CHANGED_MESSAGE);
      form.reset();
    } catch (error) {
      const message = serverMessage(error, PASSWORD_CHANGE_FAILED_MESSAGE);
      toast.error(message);
      setFormErrors([message]);
    }
  });

  const hint = `At least ${MIN_PASSWORD_LENGTH} characters.`;
  return (
    <form className="card admin-form" onSubmit={submit} aria-labelledby="change-password-heading" aria-busy={saving}>
      <h2 id="change-password-heading" className="card-title">
        <KeyRound aria-hidden="true" size={20} />
        Change Your Password
      </h2>
      <FormErrors messages={formErrors} />
      <div className="form-grid">
        <Field id="current-password" label="Current Password">
          <input
            className="input"
            type="password"
            required
            autoComplete="current-password"
            {...fieldInputProps('current-password')}
            {...register('currentPassword')}
          />
        </Field>
        <Field id="new-password" label="New Password" hint={hint}>
          <input
            className="input"
            type="password"
            required
            minLength={MIN_PASSWORD_LENGTH}
            autoComplete="new-password"
            {...fieldInputProps('new-password', undefined, hint)}
            {...register('newPassword')}
          />
        </Field>
      </div>
      <div className="form-actions">
        <SubmitButton busy={saving} busyLabel="Saving...">
          Change Password
        </SubmitButton>
      </div>
    </form>
  );
}
