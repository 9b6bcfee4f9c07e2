import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { UserPlus } from 'lucide-react';
import { SubmitButton } from '@/components/ui/SubmitButton';
import { Role, type User } from '@/gen/logistics/v1/user_pb';
import { Field, FormErrors } from '@/components/ui/Field';
import { fieldInputProps } from '@/components/ui/field-input-props';
import { fieldViolations, serverMessage } from '@/lib/rpc-errors';
import { toast } from '@/lib/toast';
import { createUser } from '../api/users';
import { ROLES } from '../utils/roles';
import { MIN_PASSWORD_LENGTH } from '@/config/passwords';

const USER_CREATED_MESSAGE = 'User created successfully';
const USER_CREATE_FAILED_MESSAGE = 'Failed to create user';

type Values = { email: string; name: string; role: string; password: string };
// The least-privileged role that can work in the back office; "User" has no access at all.
const DEFAULTS: Values = { email: '', name: '', role: String(Role.AGENT), password: '' };

/** "user.email" or "email" → "email"; null for anything the form has no input for. */
function inputFor(field: string): keyof Values | null {
  const last = field.replace(/^user\./, '');
  return last === 'email' || last === 'name' || last === 'role' || last === 'password' ? last : null;
}

/** Creates a user with a role and a first password (at least 12 characters). */
export function CreateUserForm({ onCreated }: { onCreated: (user: User) => void }) {
  const form = useForm<Values>({ defaultValues: DEFAULTS });
  const { register, formState } = form;
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const saving = formState.isSubmitting;
  const chosenRole = useWatch({ control: form.control, name: 'role' });
  const roleHint = ROLES.find((r) => String(r.role) === chosenRole)?.hint;

  const submit = form.handleSubmit(async (values) => {
    setFormErrors([]);
    try {
      const user = await createUser({
        email: values.email.trim(),
        name: values.name.trim(),
        role: Number(values.role) as Role,
        password: values.password,
      });
      toast.success(USER_CREATED_MESSAGE);
      form.reset(DEFAULTS);
      onCreated(user);
    } catch (error) {
      const message = serverMessage(error, USER_CREATE_FAILED_MESSAGE);
      toast.error(message);
      const general: string[] = [];
      const violations = fieldViolations(error);
      for (const v of violations) {
        const name = inputFor(v.field);
        if (name) form.setError(name, { type: 'server', message: v.description });
        else general.push(v.description);
      }
      setFormErrors(violations.length === 0 ? [message] : general);
    }
  });

  const err = (name: keyof Values) => formState.errors[name]?.message;

  return (
    <form className="card admin-form" onSubmit={submit} aria-labelledby="create-user-heading" aria-busy={saving}>
      <h2 id="create-user-heading" className="card-title">
        <UserPlus aria-hidden="true" size={20} />
        Create User
      </h2>
      <FormErrors messages={formErrors} />
      <div className="form-grid">
        <Field id="new-user-email" label="Email" error={err('email')}>
          <input
            className="input"
            type="email"
            required
            autoComplete="off"
            {...fieldInputProps('new-user-email', err('email'))}
            {...register('email')}
          />
        </Field>
        <Field id="new-user-name" label="Name" error={err('name')}>
          <input
            className="input"
            type="text"
            required
            autoComplete="off"
            {...fieldInputProps('new-user-name', err('name'))}
            {...register('name')}
          />
        </Field>
        {/* The options stay short so a narrow select never cuts them; the chosen role's reach is said under it. */}
        <Field id="new-user-role" label="Role" error={err('role')} hint={roleHint}>
          <select className="select" {...fieldInputProps('new-user-role', err('role'), roleHint)} {...register('role')}>
            {ROLES.map(({ role, label }) => (
              <option key={role} value={String(role)}>
                {label}
              </option>
            ))}
          </select>
        </Field>
        <Field id="new-user-password" label="Password" error={err('password')} hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}>
          <input
            className="input"
            type="password"
            required
            minLength={MIN_PASSWORD_LENGTH}
            autoComplete="new-password"
            {...fieldInputProps('new-user-password', err('password'), `At least ${MIN_PASSWORD_LENGTH} characters.`)}
            {...register('password')}
          />
        </Field>
      </div>
      <div className="form-actions">
        <SubmitButton busy={saving} busyLabel="Creating...">
          Create User
        </SubmitButton>
      </div>
    </form>
  );
}
