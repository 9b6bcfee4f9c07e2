import { useFormContext, useFormState, useWatch } from 'react-hook-form';
import { Field } from '@/components/ui/Field';
import { fieldInputProps } from '@/components/ui/field-input-props';
import type { RateCardFormValues } from '../utils/rate-card-form';
import { errorAt } from './field-error';

type NumberField = 'oversizeLengthCm' | 'oversizeWeightKg';

/** The card as a whole: currency (the public card's only), the days it is valid, what is
 * oversize, and for a customer's card a discount or prices of its own. */
export function CardFields({ isPublic, currency }: { isPublic: boolean; currency: string }) {
  const { register, control } = useFormContext<RateCardFormValues>();
  const { errors } = useFormState({ control });
  const pricing = useWatch({ control, name: 'pricing' });
  const error = (name: string) => errorAt(errors, name);

  const numberInput = (name: NumberField, id: string, label: string, hint: string) => (
    <Field id={id} label={label} error={error(name)} hint={hint}>
      <input className="input" type="text" inputMode="decimal" autoComplete="off" {...fieldInputProps(id, error(name), hint)} {...register(name)} />
    </Field>
  );

  return (
    <fieldset className="form-section rate-card-section">
      <legend>Card</legend>
      <div className="form-grid form-grid-3">
        {isPublic ? (
          <Field id="rate-card-currency" label="Currency" error={error('currency')} hint="3 letters, e.g. USD">
            <input
              className="input mono"
              type="text"
              autoComplete="off"
              maxLength={3}
              {...fieldInputProps('rate-card-currency', error('currency'), '3 letters, e.g. USD')}
              {...register('currency')}
            />
          </Field>
        ) : (
          <div className="field">
            <span className="field-label">Currency</span>
            <p className="rate-card-fixed">{currency || '—'} (the public card’s)</p>
          </div>
        )}
        <Field id="rate-card-valid-from" label="Valid from" error={error('validFrom')}>
          <input className="input" type="date" {...fieldInputProps('rate-card-valid-from', error('validFrom'))} {...register('validFrom')} />
        </Field>
        <Field id="rate-card-valid-until" label="Valid until" error={error('validUntil')}>
          <input className="input" type="date" {...fieldInputProps('rate-card-valid-until', error('validUntil'))} {...register('validUntil')} />
        </Field>
        {numberInput('oversizeLengthCm', 'rate-card-oversize-length', 'Oversize length (cm)', 'A longer side is oversize; empty: no limit')}
        {numberInput('oversizeWeightKg', 'rate-card-oversize-weight', 'Oversize weight (kg)', 'A heavier parcel is oversize; empty: no limit')}
      </div>

      {!isPublic && (
        <fieldset className="rate-card-pricing">
          <legend className="field-label">Prices</legend>
          <label className="rate-card-choice">
            <input type="radio" value="discount" {...register('pricing')} />
            Discount off the public card
          </label>
          <label className="rate-card-choice">
            <input type="radio" value="own" {...register('pricing')} />
            Own prices
          </label>
          {pricing === 'discount' && (
            <Field id="rate-card-discount" label="Discount (%)" error={error('discountPercent')} hint="e.g. 12.5 for 12.5% off every price">
              <input
                className="input rate-card-discount"
                type="text"
                inputMode="decimal"
                autoComplete="off"
                {...fieldInputProps('rate-card-discount', error('discountPercent'), 'e.g. 12.5 for 12.5% off every price')}
                {...register('discountPercent')}
              />
            </Field>
          )}
        </fieldset>
      )}
    </fieldset>
  );
}
