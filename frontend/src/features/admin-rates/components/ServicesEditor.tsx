import { useFieldArray, useFormContext, useFormState } from 'react-hook-form';
import { Plus, Trash2 } from 'lucide-react';
import { Field } from '@/components/ui/Field';
import { fieldInputProps } from '@/components/ui/field-input-props';
import { MODE_OPTIONS } from '@/utils/shipment';
import { MAX_SERVICES, blankService, type RateCardFormValues } from '../utils/rate-card-form';
import { errorAt } from './field-error';

/** The services the card prices: code, name and how they travel. */
export function ServicesEditor() {
  const { register, control } = useFormContext<RateCardFormValues>();
  const { errors } = useFormState({ control, name: 'services' });
  const services = useFieldArray({ control, name: 'services' });
  const listError = errors.services?.message ?? errors.services?.root?.message;

  return (
    <fieldset className="form-section rate-card-section">
      <legend>Services</legend>
      {listError && <p className="field-error">{listError}</p>}
      {services.fields.length === 0 && <p className="muted">No services yet.</p>}
      <ol className="rate-rows">
        {services.fields.map((row, index) => {
          const id = (part: string) => `service-${index}-${part}`;
          const error = (part: string) => errorAt(errors, `services.${index}.${part}`);
          const rowError = errors.services?.[index]?.message;
          return (
            <li key={row.id}>
              <fieldset className="rate-row rate-service-row">
                <legend>Service {index + 1}</legend>
                {typeof rowError === 'string' && <p className="field-error">{rowError}</p>}
                <Field id={id('code')} label="Code" error={error('code')}>
                  <input className="input mono" type="text" autoComplete="off" maxLength={32} {...fieldInputProps(id('code'), error('code'))} {...register(`services.${index}.code`)} />
                </Field>
                <Field id={id('name')} label="Name" error={error('name')}>
                  <input className="input" type="text" autoComplete="off" maxLength={80} {...fieldInputProps(id('name'), error('name'))} {...register(`services.${index}.name`)} />
                </Field>
                <Field id={id('mode')} label="Mode" error={error('mode')}>
                  <select className="select" {...fieldInputProps(id('mode'), error('mode'))} {...register(`services.${index}.mode`)}>
                    <option value="">Choose…</option>
                    {MODE_OPTIONS.map((o) => (
                      <option key={o.key} value={o.key}>
                        {o.label}
                      </option>
                    ))}
                  </select>
                </Field>
                <button type="button" className="btn btn-outline btn-sm rate-row-remove" aria-label={`Remove service ${index + 1}`} onClick={() => services.remove(index)}>
                  <Trash2 aria-hidden="true" size={16} />
                  Remove
                </button>
              </fieldset>
            </li>
          );
        })}
      </ol>
      <button type="button" className="btn btn-outline btn-sm" disabled={services.fields.length >= MAX_SERVICES} onClick={() => services.append(blankService())}>
        <Plus aria-hidden="true" size={16} />
        Add service
      </button>
    </fieldset>
  );
}
