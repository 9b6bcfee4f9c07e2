import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Calculator } from 'lucide-react';
import type { Quote } from '@/gen/logistics/v1/rate_card_service_pb';
import { Field, FormErrors } from '@/components/ui/Field';
import { fieldInputProps } from '@/components/ui/field-input-props';
import { SubmitButton } from '@/components/ui/SubmitButton';
import { fieldViolations, serverMessage, type FieldViolation } from '@/lib/rpc-errors';
import { formatCents } from '@/utils/format';
import { usePreviewQuote } from '../api/rate-cards';
import type { FormProblem, RateCardInit } from '../utils/rate-card-form';
import {
  BLANK_PREVIEW,
  chargeLabel,
  chargeableWeightText,
  isCardViolation,
  previewFieldOfViolation,
  previewRequest,
  transitDaysText,
  type PreviewValues,
} from '../utils/preview';

type Props = {
  /** The card as on the screen, or the inputs of it that cannot be read (shown at them). */
  readCard: () => { card: RateCardInit; problems: FormProblem[] };
  /** Puts the server's violations of the card at its inputs; returns those it could not place. */
  showCardViolations: (violations: readonly FieldViolation[]) => string[];
};

const PLACE_FIELDS: ReadonlyArray<{ name: keyof PreviewValues; label: string; hint?: string; country?: boolean }> = [
  { name: 'fromCountry', label: 'From country', hint: 'e.g. NG', country: true },
  { name: 'fromCity', label: 'From city' },
  { name: 'toCountry', label: 'To country', hint: 'e.g. NL', country: true },
  { name: 'toCity', label: 'To city' },
];

const PARCEL_FIELDS: ReadonlyArray<{ name: keyof PreviewValues; label: string }> = [
  { name: 'weightKg', label: 'Weight (kg)' },
  { name: 'lengthCm', label: 'Length (cm)' },
  { name: 'widthCm', label: 'Width (cm)' },
  { name: 'heightCm', label: 'Height (cm)' },
];

/** Preview: one parcel between two places, priced on the card as it is on the screen (saved or
 * not): each service's price, chargeable weight and why, transit days and charges. */
export function PreviewPanel({ readCard, showCardViolations }: Props) {
  const form = useForm<PreviewValues>({ defaultValues: BLANK_PREVIEW });
  const { register, formState } = form;
  const preview = usePreviewQuote();
  const [messages, setMessages] = useState<string[]>([]);
  const [quote, setQuote] = useState<Quote | null>(null);

  const submit = form.handleSubmit(async (values) => {
    setMessages([]);
    setQuote(null);
    const { card, problems } = readCard();
    if (problems.length > 0) {
      setMessages(['The card has fields that cannot be read: change the highlighted ones first.']);
      return;
    }
    try {
      setQuote(await preview.mutateAsync({ rateCard: card, quote: previewRequest(values) }));
    } catch (error) {
      const violations = fieldViolations(error);
      const general: string[] = [];
      const ofCard: FieldViolation[] = [];
      for (const violation of violations) {
        const field = previewFieldOfViolation(violation.field);
        if (field) form.setError(field, { type: 'server', message: violation.description });
        else if (isCardViolation(violation.field)) ofCard.push(violation);
        else general.push(violation.description);
      }
      if (ofCard.length > 0) general.push('The card has fields that need a change: see the highlighted ones.', ...showCardViolations(ofCard));
      setMessages(violations.length === 0 ? [serverMessage(error, 'Failed to preview the quote')] : general);
    }
  });

  const input = ({ name, label, hint, country }: { name: keyof PreviewValues; label: string; hint?: string; country?: boolean }) => {
    const id = `rate-preview-${name}`;
    const error = formState.errors[name]?.message;
    return (
      <Field key={name} id={id} label={label} error={error} hint={hint}>
        <input
          className={`input${country ? ' mono' : ''}`}
          type="text"
          autoComplete="off"
          inputMode={country || name.endsWith('City') ? undefined : 'decimal'}
          maxLength={country ? 2 : 80}
          {...fieldInputProps(id, error, hint)}
          {...register(name)}
        />
      </Field>
    );
  };

  return (
    <aside className="card rate-preview" aria-labelledby="rate-preview-heading">
      <h2 id="rate-preview-heading" className="card-title">
        <Calculator aria-hidden="true" size={20} />
        Preview
      </h2>
      <p className="muted">Prices one parcel on the card as it is on the screen, saved or not.</p>
      <form onSubmit={submit} noValidate aria-busy={preview.isPending} className="rate-preview-form">
        <div className="rate-preview-grid">{PLACE_FIELDS.map(input)}</div>
        <div className="rate-preview-grid">{PARCEL_FIELDS.map(input)}</div>
        <SubmitButton busy={preview.isPending} busyLabel="Pricing…">
          Preview
        </SubmitButton>
      </form>
      <FormErrors messages={messages} />
      <div aria-live="polite" className="rate-preview-result">
        {quote && <QuoteOptions quote={quote} />}
      </div>
    </aside>
  );
}

function QuoteOptions({ quote }: { quote: Quote }) {
  if (quote.options.length === 0) return <p className="muted">This card has no service between these places.</p>;
  return (
    <ul className="rate-preview-options" aria-label="Prices">
      {quote.options.map((option) => (
        <li key={option.serviceCode} className="rate-preview-option" data-service={option.serviceCode}>
          <div className="rate-preview-option-head">
            <h3>{option.serviceName || option.serviceCode}</h3>
            <p className="rate-preview-price" data-testid="rate-preview-price">
              {formatCents(option.priceMinor, quote.currency)}
            </p>
          </div>
          <p>{chargeableWeightText(option)}</p>
          <p>Transit {transitDaysText(option.transitDaysMin, option.transitDaysMax)}</p>
          <dl className="rate-preview-charges">
            {option.charges.map((charge, index) => (
              <div key={index} data-charge={chargeLabel(charge.kind)}>
                <dt>{chargeLabel(charge.kind)}</dt>
                <dd>{formatCents(charge.amountMinor, quote.currency)}</dd>
              </div>
            ))}
          </dl>
        </li>
      ))}
    </ul>
  );
}
