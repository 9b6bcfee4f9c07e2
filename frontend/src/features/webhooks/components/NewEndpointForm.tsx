import { useForm } from 'react-hook-form';
import { Field } from '@/components/ui/Field';
import { fieldInputProps } from '@/components/ui/field-input-props';
import type { WebhookEndpoint } from '@/gen/logistics/v1/webhook_service_pb';
import { fieldViolations, serverMessage } from '@/lib/rpc-errors';
import { toast } from '@/lib/toast';
import { useCreateEndpoint } from '../hooks/use-webhooks';
import { EVENTS } from '../utils/events';
import type { WebhookServiceDesc, WebhookWords } from './words';

type EndpointForm = { url: string; events: string[]; description: string };
const EMPTY_FORM: EndpointForm = { url: '', events: EVENTS.map((e) => e.name), description: '' };

type NewEndpointFormProps = {
  service: WebhookServiceDesc;
  words: WebhookWords;
  onAdded: (endpoint: WebhookEndpoint, secret: string) => void;
};

/** Add an endpoint: its URL, the events it wants and a description. */
export function NewEndpointForm({ service, words, onAdded }: NewEndpointFormProps) {
  const form = useForm<EndpointForm>({ defaultValues: EMPTY_FORM });
  const createEndpoint = useCreateEndpoint(service);
  const errors = form.formState.errors;
  const submit = form.handleSubmit(async (values) => {
    try {
      const created = await createEndpoint({
        url: values.url.trim(),
        events: EVENTS.filter((e) => values.events.includes(e.name)).map((e) => e.type),
        description: values.description.trim(),
      });
      if (created.endpoint) onAdded(created.endpoint, created.secret);
      form.reset(EMPTY_FORM);
      toast.success(words.added);
    } catch (err) {
      const violations = fieldViolations(err);
      for (const v of violations) {
        const field = v.field === 'events' || v.field === 'description' ? v.field : 'url';
        form.setError(field, { message: v.description });
      }
      if (violations.length === 0) toast.error(serverMessage(err, words.addFailed));
    }
  });
  const urlError = errors.url?.message;
  const eventsError = errors.events?.message;
  const descriptionError = errors.description?.message;
  return (
    <form className="card webhook-form" onSubmit={submit} aria-labelledby="webhook-form-title" noValidate>
      <h2 id="webhook-form-title">{words.formTitle}</h2>
      <Field id="webhook-url" label={words.url} error={urlError} hint={words.urlHint}>
        <input
          type="url"
          className="input"
          inputMode="url"
          autoComplete="off"
          dir="ltr"
          placeholder="https://erp.example.com/webhooks"
          {...fieldInputProps('webhook-url', urlError, words.urlHint)}
          {...form.register('url', { required: words.urlRequired })}
        />
      </Field>
      <fieldset className="webhook-events" aria-describedby={eventsError ? 'webhook-events-error' : undefined}>
        <legend className="field-label">{words.events}</legend>
        {EVENTS.map((event) => (
          <label key={event.name} className="checkbox-row">
            <input
              type="checkbox"
              value={event.name}
              {...form.register('events', { validate: (v) => v.length > 0 || words.eventsRequired })}
            />
            {words.event[event.name]}
          </label>
        ))}
        {eventsError && (
          <p id="webhook-events-error" className="field-error">
            {eventsError}
          </p>
        )}
      </fieldset>
      <Field id="webhook-description" label={words.description} error={descriptionError}>
        <input
          type="text"
          className="input"
          dir="auto"
          maxLength={200}
          {...fieldInputProps('webhook-description', descriptionError)}
          {...form.register('description')}
        />
      </Field>
      <div className="admin-page-actions">
        <button type="submit" className="btn btn-primary" disabled={form.formState.isSubmitting}>
          {form.formState.isSubmitting ? words.adding : words.add}
        </button>
      </div>
    </form>
  );
}
