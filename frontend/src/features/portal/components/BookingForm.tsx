import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useFieldArray, useForm, type FieldPath, type UseFormReturn } from 'react-hook-form';
import { AlertCircle, BadgeDollarSign, Plus, Trash2 } from 'lucide-react';
import { AddressBookEntryKind, type Customer } from '@/gen/logistics/v1/customer_pb';
import { Field, FormErrors } from '@/components/ui/Field';
import { fieldInputProps } from '@/components/ui/field-input-props';
import { ErrorAlert } from '@/components/ui/ErrorAlert';
import { Spinner } from '@/components/ui/Spinner';
import { SubmitButton } from '@/components/ui/SubmitButton';
import { QUOTE_PATH } from '@/config/quote-links';
import { portalShipmentPath } from '@/config/routes';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { useLanguage } from '@/hooks/use-language';
import { useMessages, type Translate } from '@/lib/i18n';
import { fieldViolations, serverMessage } from '@/lib/rpc-errors';
import { toast } from '@/lib/toast';
import { Trans } from '@/lib/trans';
import { formatCents, formatDateTime } from '@/utils/format';
import { bookableQuote, type QuoteClaims, type QuotedOption } from '@/utils/quote-token';
import { MODE_OPTIONS, PAYMENT_OPTIONS, TYPE_OPTIONS, type EnumOption } from '@/utils/shipment';
import { useBookShipment, useCurrentCustomer } from '../api/portal';
import { AddressPicker } from './AddressPicker';
import { blankPackage, bookingDefaults, bookingFieldOf, bookingFromQuote, bookingToShipment, type BookingValues } from '../utils/booking';

type Name = FieldPath<BookingValues>;

type FromQuote = { token: string; quote: QuoteClaims; option: QuotedOption };

/** /portal/book: a booking, the customer as the shipper (prefilled, editable). With
 * `?quote=<token>&service=<code>` (the quote page's "Book this"), the places and packages come
 * from the quote and the booking keeps its price; an expired or malformed quote says so. */
export function BookingPage() {
  const t = useMessages('portal');
  useDocumentTitle(t('portal.book.title'));
  const customer = useCurrentCustomer();
  const { path } = useLanguage();
  const [params] = useSearchParams();
  const token = params.get('quote');
  // Read once: the quote's expiry is checked as the page opens (the server checks it again).
  const [fromQuote] = useState<FromQuote | null | undefined>(() => {
    if (token === null) return undefined;
    const found = bookableQuote(token, params.get('service') ?? '');
    return found && { token, ...found };
  });
  return (
    <div className="portal-page">
      <div className="portal-page-head">
        <h1>{t('portal.book.title')}</h1>
      </div>
      <p className="muted">{t('portal.book.intro')}</p>
      {fromQuote === null && (
        <div className="alert alert-error booking-quote-expired" role="alert">
          <AlertCircle aria-hidden="true" size={22} />
          <p>
            <Trans id="portal.book.quote_expired" components={{ link: <Link to={path(QUOTE_PATH)} /> }} />
          </p>
        </div>
      )}
      {customer.isPending ? (
        <Spinner size="md" label={t('portal.book.loading')} />
      ) : customer.error ? (
        <ErrorAlert message={serverMessage(customer.error, t('portal.book.customer_failed'))} />
      ) : (
        <BookingForm customer={customer.data} fromQuote={fromQuote ?? null} />
      )}
    </div>
  );
}

function BookingForm({ customer, fromQuote }: { customer: Customer; fromQuote: FromQuote | null }) {
  const t = useMessages('portal');
  const tTrack = useMessages('track');
  const navigate = useNavigate();
  const { language } = useLanguage();
  const form = useForm<BookingValues>({
    defaultValues: fromQuote ? bookingFromQuote(bookingDefaults(customer), fromQuote.quote, fromQuote.option, language.locale) : bookingDefaults(customer),
  });
  const book = useBookShipment();
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const saving = form.formState.isSubmitting;

  const submit = form.handleSubmit(async (values) => {
    setFormErrors([]);
    try {
      const shipment = await book.mutateAsync({
        shipment: bookingToShipment(values),
        // The quoted price, as long as the route and weight are the quote's (the server checks).
        quoteToken: fromQuote?.token ?? '',
        quoteServiceCode: fromQuote?.option.code ?? '',
      });
      toast.success(t('portal.book.booked', { trackingNumber: shipment.trackingNumber }), { toastId: `booked-${shipment.id}` });
      navigate(portalShipmentPath(shipment.id));
    } catch (error) {
      setFormErrors(applyViolations(form, error, t('portal.book.failed')));
    }
  });

  const field = (name: Name, label: string, options: { type?: string; required?: boolean; wide?: boolean; auto?: string } = {}) => {
    const id = `book-${name.replace(/\./g, '-')}`;
    const error = form.getFieldState(name, form.formState).error?.message;
    return (
      <Field key={name} id={id} label={label} error={error} className={options.wide ? 'field-wide' : undefined}>
        <input
          className="input"
          type={options.type ?? 'text'}
          required={options.required ?? true}
          autoComplete={options.auto ?? 'off'}
          step={options.type === 'number' ? 'any' : undefined}
          min={options.type === 'number' ? 0 : undefined}
          {...fieldInputProps(id, error)}
          {...form.register(name)}
        />
      </Field>
    );
  };

  const select = (name: 'type' | 'mode' | 'paymentMode', label: string, options: readonly EnumOption<number>[]) => {
    const id = `book-${name}`;
    const error = form.getFieldState(name, form.formState).error?.message;
    return (
      <Field id={id} label={label} error={error}>
        <select className="select" {...fieldInputProps(id, error)} {...form.register(name)}>
          {options.map((option) => (
            <option key={option.key} value={option.key}>
              {tTrack(option.labelId)}
            </option>
          ))}
        </select>
      </Field>
    );
  };

  const party = (side: 'shipper' | 'receiver', legend: string) => (
    <fieldset className="form-section">
      <legend>{legend}</legend>
      <div className="form-grid">
        <AddressPicker
          id={`book-${side}-choose`}
          kind={side === 'shipper' ? AddressBookEntryKind.SENDER : AddressBookEntryKind.RECEIVER}
          onPick={(entry) => {
            for (const key of ['name', 'address', 'phone', 'email'] as const) {
              form.setValue(`${side}.${key}`, entry[key], { shouldDirty: true });
            }
          }}
        />
        {field(`${side}.name`, t('portal.book.name'))}
        {field(`${side}.phone`, t('portal.book.phone'), { type: 'tel' })}
        {field(`${side}.address`, t('portal.book.address'), { wide: true })}
        {field(`${side}.email`, t('portal.book.email'), { type: 'email', wide: true })}
      </div>
    </fieldset>
  );

  return (
    <form className="card booking-form" onSubmit={submit} aria-busy={saving} noValidate={false}>
      {fromQuote && (
        <div className="booking-quote">
          <BadgeDollarSign aria-hidden="true" size={22} />
          <div>
            <p className="booking-quote-price">
              {t('portal.book.quoted_price', {
                price: formatCents(fromQuote.option.price, fromQuote.quote.currency),
                id: fromQuote.quote.id,
                date: formatDateTime(fromQuote.quote.expires),
              })}
            </p>
            <p>{t('portal.book.quoted_service', { service: fromQuote.option.name })}</p>
          </div>
        </div>
      )}
      <FormErrors messages={formErrors} />
      {party('shipper', tTrack('track.party.shipper'))}
      {party('receiver', tTrack('track.party.receiver'))}
      <fieldset className="form-section">
        <legend>{t('portal.book.shipment')}</legend>
        <div className="form-grid">
          {field('origin', t('portal.book.origin'))}
          {field('destination', t('portal.book.destination'))}
          {select('type', tTrack('track.details.type'), TYPE_OPTIONS)}
          {select('mode', tTrack('track.details.mode'), MODE_OPTIONS)}
          {select('paymentMode', tTrack('track.details.payment_mode'), PAYMENT_OPTIONS)}
        </div>
      </fieldset>
      <Packages form={form} t={t} />
      <fieldset className="form-section">
        <legend>{t('portal.book.pickup')}</legend>
        <div className="form-grid">
          {field('pickupDate', tTrack('track.details.pickup_date'), { type: 'date' })}
          {field('pickupTime', tTrack('track.details.pickup_time'), { type: 'time' })}
        </div>
      </fieldset>
      <Field id="book-comments" label={tTrack('track.details.comments')} error={form.formState.errors.comments?.message}>
        <textarea
          className="textarea"
          rows={3}
          {...fieldInputProps('book-comments', form.formState.errors.comments?.message)}
          {...form.register('comments')}
        />
      </Field>
      <div className="booking-actions">
        <SubmitButton busy={saving} busyLabel={t('portal.book.booking')}>
          {t('portal.book.submit')}
        </SubmitButton>
      </div>
    </form>
  );
}

function Packages({ form, t }: { form: UseFormReturn<BookingValues>; t: Translate }) {
  const tTrack = useMessages('track');
  const rows = useFieldArray({ control: form.control, name: 'packages' });
  const error = form.formState.errors.packages?.root?.message ?? form.formState.errors.packages?.message;
  const input = (index: number, name: keyof BookingValues['packages'][number], label: string, type = 'text', required = true) => {
    const path = `packages.${index}.${name}` as const;
    const id = `book-packages-${index}-${name}`;
    const message = form.getFieldState(path, form.formState).error?.message;
    return (
      <Field id={id} label={label} error={message} className={name === 'description' ? 'field-wide' : undefined}>
        <input
          className="input"
          type={type}
          required={required}
          step={type === 'number' ? 'any' : undefined}
          min={type === 'number' ? (name === 'quantity' ? 1 : 0) : undefined}
          autoComplete="off"
          {...fieldInputProps(id, message)}
          {...form.register(path)}
        />
      </Field>
    );
  };
  return (
    <fieldset className="form-section">
      <legend>{tTrack('track.packages.title')}</legend>
      {error && <p className="field-error">{error}</p>}
      <ol className="package-rows">
        {rows.fields.map((row, index) => (
          <li key={row.id}>
            <fieldset className="package-row">
              <legend>{t('portal.book.package', { number: index + 1 })}</legend>
              <div className="form-grid form-grid-4">
                {input(index, 'quantity', tTrack('track.packages.quantity'), 'number')}
                {input(index, 'pieceType', tTrack('track.packages.piece_type'))}
                {input(index, 'description', tTrack('track.packages.description'))}
                {input(index, 'length', t('portal.book.length'), 'number')}
                {input(index, 'width', t('portal.book.width'), 'number')}
                {input(index, 'height', t('portal.book.height'), 'number')}
                {input(index, 'weight', t('portal.book.weight'), 'number')}
              </div>
              <button
                type="button"
                className="btn btn-outline btn-sm package-remove"
                aria-label={t('portal.book.remove_package', { number: index + 1 })}
                disabled={rows.fields.length <= 1}
                onClick={() => rows.remove(index)}
              >
                <Trash2 aria-hidden="true" size={16} />
                {t('portal.book.remove')}
              </button>
            </fieldset>
          </li>
        ))}
      </ol>
      <button type="button" className="btn btn-outline btn-sm" onClick={() => rows.append(blankPackage())}>
        <Plus aria-hidden="true" size={16} />
        {t('portal.book.add_package')}
      </button>
    </fieldset>
  );
}

/** Each server violation next to its input (the first focused); the rest above the form. */
function applyViolations(form: UseFormReturn<BookingValues>, error: unknown, fallback: string): string[] {
  const violations = fieldViolations(error);
  if (violations.length === 0) return [serverMessage(error, fallback)];
  const general: string[] = [];
  let focused = false;
  for (const { field, description } of violations) {
    const name = bookingFieldOf(field);
    if (name === 'packages') form.setError('packages', { type: 'server', message: description });
    else if (name) {
      form.setError(name as Name, { type: 'server', message: description }, { shouldFocus: !focused });
      focused = true;
    } else general.push(field ? `${field}: ${description}` : description);
  }
  return general;
}
