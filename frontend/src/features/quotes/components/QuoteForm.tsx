import { useState } from 'react';
import { useFieldArray, useForm, type UseFormReturn } from 'react-hook-form';
import { Calculator, Plus, Trash2 } from 'lucide-react';
import type { Quote } from '@/gen/logistics/v1/rate_card_service_pb';
import { Field, FormErrors } from '@/components/ui/Field';
import { fieldInputProps } from '@/components/ui/field-input-props';
import { SubmitButton } from '@/components/ui/SubmitButton';
import { useHydrated } from '@/hooks/use-hydrated';
import { useLanguage } from '@/hooks/use-language';
import { useMessages, type Translate } from '@/lib/i18n';
import { toast } from '@/lib/toast';
import { countryOptions } from '@/utils/countries';
import { createQuote } from '../api/quote';
import {
  MAX_PARCELS,
  blankParcel,
  cityProblem,
  countProblem,
  countryProblem,
  invalidMessageId,
  quoteDefaults,
  quoteFieldOf,
  sideProblem,
  weightProblem,
  type ParcelValues,
  type Problem,
  type QuoteFormValues,
} from '../utils/quote-form';
import './quotes.css';

type Side = 'origin' | 'destination';

/** The quote form: from, to and the parcels; `onQuote` gets the answer. The page gives it its
 * heading (`labelledBy`). */
export function QuoteForm({ labelledBy, onQuote }: { labelledBy: string; onQuote: (quote: Quote) => void }) {
  const t = useMessages('quote');
  const { language } = useLanguage();
  const english = language.code === 'en';
  const form = useForm<QuoteFormValues>({ defaultValues: quoteDefaults() });
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const sending = form.formState.isSubmitting;
  // Until React runs the form, a press would submit the static HTML (its values in the URL).
  const hydrated = useHydrated();

  const submit = form.handleSubmit(async (values) => {
    setFormErrors([]);
    try {
      onQuote(await createQuote(values));
    } catch (error) {
      const failure = t('quote.error.failed');
      // Loaded only now, with the client, so the page's first load stays small.
      const [{ fieldViolations, serverMessage }, { Code, ConnectError }] = await Promise.all([
        import('@/lib/rpc-errors'),
        import('@connectrpc/connect'),
      ]);
      const code = ConnectError.from(error).code;
      if (code === Code.ResourceExhausted) {
        toast.error(english ? serverMessage(error, t('quote.error.rate_limited')) : t('quote.error.rate_limited'), { toastId: 'quote-rate-limited' });
        return;
      }
      const general: string[] = [];
      let placed = 0;
      for (const violation of fieldViolations(error)) {
        const name = quoteFieldOf(violation.field);
        if (!name) {
          general.push(english ? violation.description : failure);
          continue;
        }
        const message = english ? violation.description : t(invalidMessageId(name));
        if (name === 'parcels') general.push(message);
        else form.setError(name, { type: 'server', message }, { shouldFocus: placed === 0 });
        placed += 1;
      }
      if (placed === 0 && general.length === 0) {
        const unavailable = code === Code.FailedPrecondition;
        general.push(english ? serverMessage(error, failure) : unavailable ? t('quote.error.unavailable') : failure);
      }
      setFormErrors([...new Set(general)]);
    }
  });

  return (
    <form className="quote-form" onSubmit={submit} aria-labelledby={labelledBy} aria-busy={sending} noValidate>
      <FormErrors messages={formErrors} />
      <div className="quote-places">
        <Place form={form} side="origin" legend={t('quote.form.from')} t={t} hydrated={hydrated} locale={language.locale} />
        <Place form={form} side="destination" legend={t('quote.form.to')} t={t} hydrated={hydrated} locale={language.locale} />
      </div>
      <Parcels form={form} t={t} />
      <div className="form-actions">
        <SubmitButton busy={sending} disabled={!hydrated} busyLabel={t('quote.form.quoting')}>
          <Calculator aria-hidden="true" size={18} />
          {t('quote.form.submit')}
        </SubmitButton>
      </div>
    </form>
  );
}

const check = (t: Translate, problem: Problem) => (problem ? t(problem) : true);

type PlaceProps = { form: UseFormReturn<QuoteFormValues>; side: Side; legend: string; t: Translate; hydrated: boolean; locale: string };

/** A country (select) and an optional city. */
function Place({ form, side, legend, t, hydrated, locale }: PlaceProps) {
  const country = `${side}Country` as const;
  const city = `${side}City` as const;
  const countryId = `quote-${side}-country`;
  const cityId = `quote-${side}-city`;
  const countryError = form.formState.errors[country]?.message;
  const cityError = form.formState.errors[city]?.message;
  return (
    <fieldset className="form-section quote-place">
      <legend>{legend}</legend>
      <div className="form-grid">
        <Field id={countryId} label={t('quote.form.country')} error={countryError}>
          <select
            className="select"
            required
            autoComplete={side === 'origin' ? 'country' : 'off'}
            {...fieldInputProps(countryId, countryError)}
            {...form.register(country, { validate: (value) => check(t, countryProblem(value)) })}
          >
            <option value="">{t('quote.form.choose_country')}</option>
            {/* Named by the browser's Intl after hydration: the build's names could differ. */}
            {hydrated &&
              countryOptions(locale).map((option) => (
                <option key={option.code} value={option.code}>
                  {option.name}
                </option>
              ))}
          </select>
        </Field>
        <Field id={cityId} label={t('quote.form.city')} error={cityError}>
          <input
            className="input"
            type="text"
            maxLength={80}
            autoComplete={side === 'origin' ? 'address-level2' : 'off'}
            {...fieldInputProps(cityId, cityError)}
            {...form.register(city, { validate: (value) => check(t, cityProblem(value)) })}
          />
        </Field>
      </div>
    </fieldset>
  );
}

/** The parcels, 1 to 20 rows of identical parcels. */
function Parcels({ form, t }: { form: UseFormReturn<QuoteFormValues>; t: Translate }) {
  const rows = useFieldArray({ control: form.control, name: 'parcels' });
  const input = (index: number, name: keyof ParcelValues, label: string, validate: (value: string, parcel: ParcelValues) => Problem) => {
    const path = `parcels.${index}.${name}` as const;
    const id = `quote-parcels-${index}-${name}`;
    const message = form.getFieldState(path, form.formState).error?.message;
    return (
      <Field id={id} label={label} error={message}>
        <input
          className="input"
          type="text"
          inputMode={name === 'count' ? 'numeric' : 'decimal'}
          required={name === 'weight' || name === 'count'}
          autoComplete="off"
          dir="ltr"
          {...fieldInputProps(id, message)}
          {...form.register(path, {
            validate: (value, all) => check(t, validate(value, all.parcels[index])),
            // A side's check depends on the other two.
            deps: name === 'length' || name === 'width' || name === 'height' ? [`parcels.${index}.length`, `parcels.${index}.width`, `parcels.${index}.height`] : undefined,
          })}
        />
      </Field>
    );
  };
  return (
    <fieldset className="form-section quote-parcels">
      <legend>{t('quote.form.parcels')}</legend>
      <ol className="quote-parcel-rows">
        {rows.fields.map((row, index) => (
          <li key={row.id}>
            <fieldset className="quote-parcel-row">
              <legend>{t('quote.form.parcel', { number: index + 1 })}</legend>
              <div className="quote-parcel-fields">
                {input(index, 'weight', t('quote.form.weight'), weightProblem)}
                {input(index, 'length', t('quote.form.length'), sideProblem)}
                {input(index, 'width', t('quote.form.width'), sideProblem)}
                {input(index, 'height', t('quote.form.height'), sideProblem)}
                {input(index, 'count', t('quote.form.count'), countProblem)}
              </div>
              <button
                type="button"
                className="btn btn-outline btn-sm quote-parcel-remove"
                aria-label={t('quote.form.remove_parcel', { number: index + 1 })}
                disabled={rows.fields.length <= 1}
                onClick={() => rows.remove(index)}
              >
                <Trash2 aria-hidden="true" size={16} />
                {t('quote.form.remove')}
              </button>
            </fieldset>
          </li>
        ))}
      </ol>
      <button type="button" className="btn btn-outline btn-sm" disabled={rows.fields.length >= MAX_PARCELS} onClick={() => rows.append(blankParcel())}>
        <Plus aria-hidden="true" size={16} />
        {t('quote.form.add_parcel')}
      </button>
    </fieldset>
  );
}
