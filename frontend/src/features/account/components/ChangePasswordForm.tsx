import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useQueryClient } from '@tanstack/react-query';
import { KeyRound } from 'lucide-react';
import { SubmitButton } from '@/components/ui/SubmitButton';
import { Field, FormErrors } from '@/components/ui/Field';
import { fieldInputProps } from '@/components/ui/field-input-props';
import { MIN_PASSWORD_LENGTH } from '@/config/passwords';
import { fieldViolations, serverMessage } from '@/lib/rpc-errors';
import { toast } from '@/lib/toast';
import { OWN_SESSIONS_KEY, changePassword } from '../api/account';

const PASSWORD_CHANGED_MESSAGE = 'Password changed successfully';
const PASSWORD_CHANGE_FAILED_MESSAGE = 'Failed to change password';
const MISMATCH_MESSAGE = 'The new passwords do not match';
const HINT = `At least ${MIN_PASSWORD_LENGTH} characters. Your other sessions will be signed out.`;

type Values = { currentPassword: string; newPassword: string; confirmPassword: string };

/** The server's field names, as the form's. */
const FIELDS: Record<string, keyof Values> = {
  current_password: 'currentPassword',
  new_password: 'newPassword',
};

/** The signed-in user changes their own password (the current one, the new one twice). */
export function ChangePasswordForm() {
  const queryClient = useQueryClient();
  const form = useForm<Values>({ defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' } });
  const { register, formState, setError } = form;
  const { errors } = formState;
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const saving = formState.isSubmitting;

  const submit = form.handleSubmit(async (values) => {
    setFormErrors([]);
    try {
      await changePassword(values.currentPassword, values.newPassword);
      toast.success(PASSWORD_CHANGED_MESSAGE);
      form.reset();
    } catch (error) {
      const violations = fieldViolations(error);
      const unplaced = violations.filter((v) => !FIELDS[v.field]);
      violations.forEach((v) => {
        const field = FIELDS[v.field];
        if (field) setError(field, { message: v.description }, { shouldFocus: true });
      });
      if (violations.length === 0 || unplaced.length > 0) {
        setFormErrors(
          unplaced.length > 0
            ? unplaced.map((v) => v.description)
            : [serverMessage(error, PASSWORD_CHANGE_FAILED_MESSAGE)],
        );
      }
    } finally {
      // A changed password ends the other sessions; a refused one changes nothing, cheaply asked.
      void queryClient.invalidateQueries({ queryKey: OWN_SESSIONS_KEY });
    }
  });

  const currentError = errors.currentPassword?.message;
  const newError = errors.newPassword?.message;
  const confirmError = errors.confirmPassword?.message;
  return (
    <form
      className="card admin-form"
      onSubmit={submit}
      aria-labelledby="change-password-heading"
      aria-busy={saving}
      noValidate
    >
      <h2 id="change-password-heading" className="card-title">
        <KeyRound aria-hidden="true" size={20} />
        Change Your Password
      </h2>
      <FormErrors messages={formErrors} />
      <div className="form-grid">
        <Field id="current-password" label="Current Password" error={currentError}>
          <input
            className="input"
            type="password"
            autoComplete="current-password"
            {...fieldInputProps('current-password', currentError)}
            {...register('currentPassword', { required: 'Enter your current password' })}
          />
        </Field>
        <Field id="new-password" label="New Password" error={newError} hint={HINT}>
          <input
            className="input"
            type="password"
            autoComplete="new-password"
            {...fieldInputProps('new-password', newError, HINT)}
            {...register('newPassword', {
              required: 'Enter a new password',
              minLength: { value: MIN_PASSWORD_LENGTH, message: `At least ${MIN_PASSWORD_LENGTH} characters` },
            })}
          />
        </Field>
        <Field id="confirm-password" label="Confirm New Password" error={confirmError}>
          <input
            className="input"
            type="password"
            autoComplete="new-password"
            {...fieldInputProps('confirm-password', confirmError)}
            {...register('confirmPassword', {
              validate: (value, all) => value === all.newPassword || MISMATCH_MESSAGE,
            })}
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
