import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useQueryClient } from '@tanstack/react-query';
import { KeyRound } from 'lucide-react';
import { SubmitButton } from '@/components/ui/SubmitButton';
import { Field, FormErrors } from '@/components/ui/Field';
import { fieldInputProps } from '@/components/ui/field-input-props';
import { MIN_PASSWORD_LENGTH } from '@/config/passwords';
import type { Translate } from '@/lib/i18n';
import { fieldViolations, serverMessage } from '@/lib/rpc-errors';
import { toast } from '@/lib/toast';
import { OWN_SESSIONS_KEY, changePassword } from '../api/account';

type Values = { currentPassword: string; newPassword: string; confirmPassword: string };

/** The server's field names, as the form's. */
const FIELDS: Record<string, keyof Values> = {
  current_password: 'currentPassword',
  new_password: 'newPassword',
};

/** The signed-in user changes their own password (the current one, the new one twice). */
export function ChangePasswordForm({ t }: { t: Translate }) {
  const queryClient = useQueryClient();
  const form = useForm<Values>({ defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' } });
  const { register, formState, setError } = form;
  const { errors } = formState;
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const saving = formState.isSubmitting;
  const hint = t('account.password.hint', { min: MIN_PASSWORD_LENGTH });

  const submit = form.handleSubmit(async (values) => {
    setFormErrors([]);
    try {
      await changePassword(values.currentPassword, values.newPassword);
      toast.success(t('account.password.changed'));
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
            : [serverMessage(error, t('account.password.failed'))],
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
        {t('account.password.heading')}
      </h2>
      <FormErrors messages={formErrors} />
      <div className="form-grid">
        <Field id="current-password" label={t('account.password.current')} error={currentError}>
          <input
            className="input"
            type="password"
            autoComplete="current-password"
            {...fieldInputProps('current-password', currentError)}
            {...register('currentPassword', { required: t('account.password.current_required') })}
          />
        </Field>
        <Field id="new-password" label={t('account.password.new')} error={newError} hint={hint}>
          <input
            className="input"
            type="password"
            autoComplete="new-password"
            {...fieldInputProps('new-password', newError, hint)}
            {...register('newPassword', {
              required: t('account.password.new_required'),
              minLength: { value: MIN_PASSWORD_LENGTH, message: t('account.password.too_short', { min: MIN_PASSWORD_LENGTH }) },
            })}
          />
        </Field>
        <Field id="confirm-password" label={t('account.password.confirm')} error={confirmError}>
          <input
            className="input"
            type="password"
            autoComplete="new-password"
            {...fieldInputProps('confirm-password', confirmError)}
            {...register('confirmPassword', {
              validate: (value, all) => value === all.newPassword || t('account.password.mismatch'),
            })}
          />
        </Field>
      </div>
      <div className="form-actions">
        <SubmitButton busy={saving} busyLabel={t('account.password.saving')}>
          {t('account.password.submit')}
        </SubmitButton>
      </div>
    </form>
  );
}
