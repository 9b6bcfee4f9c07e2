import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { fieldViolations, serverMessage } from '@/lib/rpc-errors';
import { useCreateApiKey } from '../api/api-keys';
import { apiKeyFieldOf, newApiKeyOf, type ApiKeyFormValues } from '../utils/api-keys';

const BLANK: ApiKeyFormValues = { displayName: '', scopes: [], expiresOn: '' };

/** A key just made: its name and its secret, shown this once. */
export type NewSecret = { name: string; secret: string };

/** The Create API key form: sends the key, puts the server's violations next to their inputs
 * (the rest above the form), and hands the secret to `onCreated`. */
export function useApiKeyForm(offered: readonly string[], failed: string, onCreated: (created: NewSecret) => void) {
  const form = useForm<ApiKeyFormValues>({ defaultValues: BLANK });
  const create = useCreateApiKey();
  const [formErrors, setFormErrors] = useState<string[]>([]);

  const submit = form.handleSubmit(async (values) => {
    setFormErrors([]);
    try {
      const answer = await create.mutateAsync({ apiKey: newApiKeyOf(values, offered) });
      form.reset(BLANK);
      onCreated({ name: answer.apiKey?.displayName ?? values.displayName.trim(), secret: answer.secret });
    } catch (error) {
      const violations = fieldViolations(error);
      const general: string[] = [];
      let focused = false;
      for (const { field, description } of violations) {
        const name = apiKeyFieldOf(field);
        if (name) {
          form.setError(name, { type: 'server', message: description }, { shouldFocus: !focused && name !== 'scopes' });
          focused = true;
        } else general.push(description);
      }
      setFormErrors(violations.length === 0 ? [serverMessage(error, failed)] : general);
    }
  });

  return { form, submit, formErrors };
}
