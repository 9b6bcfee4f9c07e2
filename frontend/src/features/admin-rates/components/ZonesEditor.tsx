import { useFieldArray, useFormContext, useFormState } from 'react-hook-form';
import { Plus, Trash2 } from 'lucide-react';
import { Field } from '@/components/ui/Field';
import { fieldInputProps } from '@/components/ui/field-input-props';
import { MAX_ZONES, blankZone, type RateCardFormValues } from '../utils/rate-card-form';
import { errorAt } from './field-error';

const PLACES_HINT = 'Comma separated: NG, GH, NG/Lagos';

/** The card's zones: code, name, places and whether they are remote. */
export function ZonesEditor() {
  const { register, control } = useFormContext<RateCardFormValues>();
  const { errors } = useFormState({ control, name: 'zones' });
  const zones = useFieldArray({ control, name: 'zones' });
  const listError = errors.zones?.message ?? errors.zones?.root?.message;

  return (
    <fieldset className="form-section rate-card-section">
      <legend>Zones</legend>
      {listError && <p className="field-error">{listError}</p>}
      {zones.fields.length === 0 && <p className="muted">No zones yet.</p>}
      <ol className="rate-rows">
        {zones.fields.map((row, index) => {
          const id = (part: string) => `zone-${index}-${part}`;
          const error = (part: string) => errorAt(errors, `zones.${index}.${part}`);
          const rowError = errors.zones?.[index]?.message;
          return (
            <li key={row.id}>
              <fieldset className="rate-row rate-zone-row">
                <legend>Zone {index + 1}</legend>
                {typeof rowError === 'string' && <p className="field-error">{rowError}</p>}
                <Field id={id('code')} label="Code" error={error('code')}>
                  <input className="input mono" type="text" autoComplete="off" maxLength={16} {...fieldInputProps(id('code'), error('code'))} {...register(`zones.${index}.code`)} />
                </Field>
                <Field id={id('name')} label="Name" error={error('name')}>
                  <input className="input" type="text" autoComplete="off" maxLength={80} {...fieldInputProps(id('name'), error('name'))} {...register(`zones.${index}.name`)} />
                </Field>
                <Field id={id('places')} label="Places" error={error('places')} hint={PLACES_HINT} className="rate-zone-places">
                  <input className="input" type="text" autoComplete="off" {...fieldInputProps(id('places'), error('places'), PLACES_HINT)} {...register(`zones.${index}.places`)} />
                </Field>
                <label className="rate-check">
                  <input type="checkbox" {...register(`zones.${index}.remote`)} />
                  Remote
                </label>
                <button type="button" className="btn btn-outline btn-sm rate-row-remove" aria-label={`Remove zone ${index + 1}`} onClick={() => zones.remove(index)}>
                  <Trash2 aria-hidden="true" size={16} />
                  Remove
                </button>
              </fieldset>
            </li>
          );
        })}
      </ol>
      <button type="button" className="btn btn-outline btn-sm" disabled={zones.fields.length >= MAX_ZONES} onClick={() => zones.append(blankZone())}>
        <Plus aria-hidden="true" size={16} />
        Add zone
      </button>
    </fieldset>
  );
}
