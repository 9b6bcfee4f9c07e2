import { useState } from 'react';
import { KeyRound } from 'lucide-react';
import { Field, FormErrors } from '@/components/ui/Field';
import { fieldInputProps } from '@/components/ui/field-input-props';
import { SubmitButton } from '@/components/ui/SubmitButton';
import { useApiKeyForm, type NewSecret } from '../hooks/use-api-key-form';
import { expiryBounds } from '../utils/api-keys';
import type { ApiKeyWords, ScopeOption } from './words';

type CreateApiKeyFormProps = { scopes: readonly ScopeOption[]; words: ApiKeyWords; onCreated: (created: NewSecret) => void };

/** Create API key: its name, the scopes (a line each on what it allows) and an optional expiry. */
export function CreateApiKeyForm({ scopes, words, onCreated }: CreateApiKeyFormProps) {
  const { form, submit, formErrors } = useApiKeyForm(
    scopes.map((s) => s.name),
    words.createFailed,
    onCreated,
  );
  const { register, formState } = form;
  const [bounds] = useState(() => expiryBounds(new Date()));
  const saving = formState.isSubmitting;
  const nameError = formState.errors.displayName?.message;
  const scopesError = formState.errors.scopes?.message;
  const expiresError = formState.errors.expiresOn?.message;

  return (
    <section className="card api-key-create" aria-labelledby="api-key-create-title">
      <h2 id="api-key-create-title" className="card-title">
        {words.createTitle}
      </h2>
      <p className="muted">{words.createIntro}</p>
      <form onSubmit={(event) => void submit(event)} aria-busy={saving} noValidate className="api-key-form">
        <FormErrors messages={formErrors} />
        <Field id="api-key-name" label={words.name} error={nameError}>
          <input
            className="input"
            type="text"
            autoComplete="off"
            dir="auto"
            maxLength={100}
            {...fieldInputProps('api-key-name', nameError)}
            {...register('displayName')}
          />
        </Field>
        <fieldset
          className={`api-key-scopes${scopesError ? ' has-error' : ''}`}
          aria-describedby={scopesError ? 'api-key-scopes-error' : undefined}
          aria-invalid={scopesError ? true : undefined}
        >
          <legend className="field-label">{words.scopesLegend}</legend>
          {scopes.map((scope) => {
            const id = `api-key-scope-${scope.name.replace(/[^a-z0-9]+/gi, '-')}`;
            return (
              <div key={scope.name} className="api-key-scope">
                <input id={id} type="checkbox" value={scope.name} aria-describedby={`${id}-what`} {...register('scopes')} />
                <label htmlFor={id}>
                  {scope.label}
                  {scope.label !== scope.name && (
                    <>
                      {' '}
                      <code dir="ltr">{scope.name}</code>
                    </>
                  )}
                </label>
                <p id={`${id}-what`} className="muted">
                  {scope.description}
                </p>
              </div>
            );
          })}
          {scopesError && (
            <p id="api-key-scopes-error" className="field-error">
              {scopesError}
            </p>
          )}
        </fieldset>
        <Field id="api-key-expires" label={words.expiresOn} error={expiresError} hint={words.expiresHint} className="api-key-expires">
          <input
            className="input"
            type="date"
            min={bounds.min}
            max={bounds.max}
            {...fieldInputProps('api-key-expires', expiresError, words.expiresHint)}
            {...register('expiresOn')}
          />
        </Field>
        <div className="api-key-form-actions">
          <SubmitButton busy={saving} busyLabel={words.creating}>
            <KeyRound aria-hidden="true" size={18} />
            {words.create}
          </SubmitButton>
        </div>
      </form>
    </section>
  );
}
