import { useFieldArray, useFormContext, useFormState, useWatch, type FieldPath } from 'react-hook-form';
import { Plus, Trash2 } from 'lucide-react';
import { Field } from '@/components/ui/Field';
import { fieldInputProps } from '@/components/ui/field-input-props';
import { MAX_BREAKS, blankWeightBreak, type LaneValues, type RateCardFormValues } from '../utils/rate-card-form';
import { errorAt } from './field-error';

type TextPart = Exclude<keyof LaneValues, 'weightBreaks' | 'serviceCode' | 'originZone' | 'destinationZone'>;

const TEXT_FIELDS: ReadonlyArray<{ part: TextPart; label: string; hint?: string; mode: 'decimal' | 'numeric' }> = [
  { part: 'minimumCharge', label: 'Minimum charge', mode: 'decimal' },
  { part: 'volumetricDivisor', label: 'Volumetric divisor', hint: 'cm³ per kg, e.g. 5000; empty: actual weight only', mode: 'numeric' },
  { part: 'fuelPercent', label: 'Fuel surcharge (%)', mode: 'decimal' },
  { part: 'remoteAreaSurcharge', label: 'Remote-area surcharge', mode: 'decimal' },
  { part: 'oversizeSurcharge', label: 'Oversize surcharge', hint: 'For each oversize parcel', mode: 'decimal' },
  { part: 'transitDaysMin', label: 'Transit days, min', mode: 'numeric' },
  { part: 'transitDaysMax', label: 'Transit days, max', mode: 'numeric' },
];

/** An open lane's inputs: service and zones (the card's codes), its charges, transit days and
 * weight breaks. */
export function LaneEditor({ index }: { index: number }) {
  const { register, control } = useFormContext<RateCardFormValues>();
  const { errors } = useFormState({ control, name: `lanes.${index}` });
  const services = useWatch({ control, name: 'services' });
  const zones = useWatch({ control, name: 'zones' });
  const breaks = useFieldArray({ control, name: `lanes.${index}.weightBreaks` });
  const path = (part: string) => `lanes.${index}.${part}` as FieldPath<RateCardFormValues>;
  const id = (part: string) => `lane-${index}-${part}`;
  const error = (part: string) => errorAt(errors, `lanes.${index}.${part}`);
  const laneError = (errors.lanes?.[index] as { message?: string } | undefined)?.message;
  const breaksError = errorAt(errors, `lanes.${index}.weightBreaks`);

  const codeSelect = (part: 'serviceCode' | 'originZone' | 'destinationZone', label: string, codes: string[]) => (
    <Field id={id(part)} label={label} error={error(part)}>
      <select className="select mono" {...fieldInputProps(id(part), error(part))} {...register(path(part))}>
        <option value="">Choose…</option>
        {[...new Set(codes.map((c) => c.trim()).filter(Boolean))].map((code) => (
          <option key={code} value={code}>
            {code}
          </option>
        ))}
      </select>
    </Field>
  );
  const zoneCodes = (zones ?? []).map((z) => z.code);

  return (
    <>
      {laneError && <p className="field-error">{laneError}</p>}
      <div className="rate-lane-grid">
        {codeSelect('serviceCode', 'Service', (services ?? []).map((s) => s.code))}
        {codeSelect('originZone', 'From zone', zoneCodes)}
        {codeSelect('destinationZone', 'To zone', zoneCodes)}
        {TEXT_FIELDS.map(({ part, label, hint, mode }) => (
          <Field key={part} id={id(part)} label={label} error={error(part)} hint={hint}>
            <input className="input" type="text" inputMode={mode} autoComplete="off" {...fieldInputProps(id(part), error(part), hint)} {...register(path(part))} />
          </Field>
        ))}
      </div>
      <fieldset className="rate-breaks">
        <legend>Weight breaks</legend>
        {breaksError && <p className="field-error">{breaksError}</p>}
        <ol className="rate-break-rows">
          {breaks.fields.map((row, j) => {
            const part = (name: string) => `weightBreaks.${j}.${name}`;
            return (
              <li key={row.id} className="rate-break-row" data-break={j}>
                <Field id={id(`break-${j}-up-to`)} label="Up to (kg)" error={error(part('upToKg'))}>
                  <input
                    className="input"
                    type="text"
                    inputMode="decimal"
                    autoComplete="off"
                    {...fieldInputProps(id(`break-${j}-up-to`), error(part('upToKg')))}
                    {...register(path(part('upToKg')))}
                  />
                </Field>
                <Field id={id(`break-${j}-price`)} label="Price" error={error(part('price'))}>
                  <input
                    className="input"
                    type="text"
                    inputMode="decimal"
                    autoComplete="off"
                    {...fieldInputProps(id(`break-${j}-price`), error(part('price')))}
                    {...register(path(part('price')))}
                  />
                </Field>
                <label className="rate-check">
                  <input type="checkbox" {...register(path(part('perKg')))} />
                  Per kg
                </label>
                <button
                  type="button"
                  className="btn btn-outline btn-sm rate-row-remove"
                  aria-label={`Remove weight break ${j + 1}`}
                  onClick={() => breaks.remove(j)}
                >
                  <Trash2 aria-hidden="true" size={16} />
                </button>
              </li>
            );
          })}
        </ol>
        <button type="button" className="btn btn-outline btn-sm" disabled={breaks.fields.length >= MAX_BREAKS} onClick={() => breaks.append(blankWeightBreak())}>
          <Plus aria-hidden="true" size={16} />
          Add weight break
        </button>
      </fieldset>
    </>
  );
}
