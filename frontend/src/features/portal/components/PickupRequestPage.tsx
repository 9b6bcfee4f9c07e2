import './address-book.css';
import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import type { Customer, PickupSettings } from '@/gen/logistics/v1/customer_pb';
import { Field, FormErrors } from '@/components/ui/Field';
import { fieldInputProps } from '@/components/ui/field-input-props';
import { ErrorAlert } from '@/components/ui/ErrorAlert';
import { Spinner } from '@/components/ui/Spinner';
import { SubmitButton } from '@/components/ui/SubmitButton';
import { languageByCode } from '@/config/languages';
import { PORTAL_PICKUPS_PATH } from '@/config/routes';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { currentLanguage, useMessages } from '@/lib/i18n';
import { fieldViolations, serverMessage } from '@/lib/rpc-errors';
import { toast } from '@/lib/toast';
import { formatDateParts } from '@/utils/format';
import { useCurrentCustomer } from '../api/portal';
import { useCreatePickup, usePendingShipments, usePickupSettings } from '../api/pickups';
import { clockToTime, closedDaysText, cutoffText, isoToDate } from '../utils/pickups';

/** /portal/pickups/new: a pickup request; `?shipment=<id>` preselects one shipment. */
export function PickupRequestPage() {
  const t = useMessages('portal');
  useDocumentTitle(t('portal.pickups.request'));
  const customer = useCurrentCustomer();
  const settings = usePickupSettings();
  const pending = customer.isPending || settings.isPending;
  const error = customer.error ?? settings.error;
  return (
    <div className="portal-page">
      <div className="portal-page-head">
        <h1>{t('portal.pickups.request')}</h1>
      </div>
      {pending ? (
        <Spinner size="md" label={t('portal.pickups.loading')} />
      ) : error || !customer.data || !settings.data ? (
        <ErrorAlert message={serverMessage(error, t('portal.pickups.load_failed'))} />
      ) : (
        <PickupForm customer={customer.data} settings={settings.data} />
      )}
    </div>
  );
}

type Values = { address: string; area: string; date: string; windowStart: string; windowEnd: string; parcelCount: string; notes: string };
type Errors = Partial<Record<keyof Values | 'shipmentIds', string>>;

function PickupForm({ customer, settings }: { customer: Customer; settings: PickupSettings }) {
  const t = useMessages('portal');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const shipments = usePendingShipments();
  const create = useCreatePickup();
  const [values, setValues] = useState<Values>({
    address: customer.billingAddress,
    area: '',
    date: '',
    windowStart: '09:00',
    windowEnd: '17:00',
    parcelCount: '1',
    notes: '',
  });
  const [chosen, setChosen] = useState<string[]>(params.getAll('shipment'));
  const [errors, setErrors] = useState<Errors>({});
  const [general, setGeneral] = useState<string[]>([]);
  const locale = languageByCode(currentLanguage()).locale;
  const cutoff = cutoffText(settings);
  const closed = closedDaysText(settings, locale);
  const rules = [
    cutoff ? t('portal.pickups.rule_cutoff', { time: cutoff }) : t('portal.pickups.rule_no_same_day'),
    closed ? t('portal.pickups.rule_closed', { days: closed }) : '',
  ]
    .filter(Boolean)
    .join(' ');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    setGeneral([]);
    try {
      const pickup = await create.mutateAsync({
        pickup: {
          address: values.address,
          area: values.area,
          date: isoToDate(values.date),
          windowStart: clockToTime(values.windowStart),
          windowEnd: clockToTime(values.windowEnd),
          parcelCount: Number(values.parcelCount),
          shipmentIds: chosen,
          notes: values.notes,
          // The confirmation e-mail comes in the language the pickup was asked for in.
          languageCode: currentLanguage(),
        },
      });
      const date = pickup.date ? formatDateParts(pickup.date.year, pickup.date.month, pickup.date.day) : values.date;
      toast.success(t('portal.pickups.requested', { date }));
      navigate(PORTAL_PICKUPS_PATH);
    } catch (error) {
      const violations = fieldViolations(error);
      if (violations.length === 0) {
        setGeneral([serverMessage(error, t('portal.pickups.request_failed'))]);
        return;
      }
      const next: Errors = {};
      const rest: string[] = [];
      for (const { field, description } of violations) {
        const name = field.replace(/^pickup\./, '').replace(/\[\d+\]$/, '').replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
        if (name in values || name === 'shipmentIds') next[name as keyof Errors] = description;
        else rest.push(description);
      }
      setErrors(next);
      setGeneral(rest);
    }
  };

  const input = (name: keyof Values, label: string, type = 'text', hint?: string) => {
    const id = `pickup-${name}`;
    return (
      <Field id={id} label={label} error={errors[name]} hint={hint} className={name === 'address' || name === 'date' ? 'field-wide' : undefined}>
        <input
          className="input"
          type={type}
          // Latin addresses keep their order in the Arabic page.
          dir={type === 'text' ? 'auto' : undefined}
          required
          min={type === 'number' ? 1 : undefined}
          value={values[name]}
          onChange={(e) => setValues({ ...values, [name]: e.target.value })}
          {...fieldInputProps(id, errors[name], hint)}
        />
      </Field>
    );
  };

  const pendingShipments = shipments.data?.shipments ?? [];
  return (
    <form className="card booking-form" onSubmit={(e) => void submit(e)} aria-busy={create.isPending}>
      <FormErrors messages={general} />
      <div className="form-grid">
        {input('address', t('portal.pickups.address'))}
        {input('area', t('portal.pickups.area'))}
        {input('date', t('portal.pickups.date'), 'date', rules)}
        {input('windowStart', t('portal.pickups.window_start'), 'time')}
        {input('windowEnd', t('portal.pickups.window_end'), 'time')}
        {input('parcelCount', t('portal.pickups.parcel_count'), 'number')}
      </div>
      <fieldset className="form-section">
        <legend>{t('portal.pickups.shipments')}</legend>
        {errors.shipmentIds && <p className="field-error">{errors.shipmentIds}</p>}
        {shipments.isPending ? (
          <Spinner size="sm" label={t('portal.pickups.loading')} />
        ) : pendingShipments.length === 0 ? (
          <p className="muted">{t('portal.pickups.no_pending')}</p>
        ) : (
          pendingShipments.map((shipment) => (
            <label key={shipment.id} className="checkbox-row">
              <input
                type="checkbox"
                checked={chosen.includes(shipment.id)}
                onChange={(e) => setChosen(e.target.checked ? [...chosen, shipment.id] : chosen.filter((id) => id !== shipment.id))}
              />
              <bdi dir="ltr">{shipment.trackingNumber}</bdi> · <bdi>{shipment.receiver?.name}</bdi>
            </label>
          ))
        )}
      </fieldset>
      <Field id="pickup-notes" label={t('portal.pickups.notes')} error={errors.notes}>
        <textarea
          className="textarea"
          rows={3}
          dir="auto"
          value={values.notes}
          onChange={(e) => setValues({ ...values, notes: e.target.value })}
          {...fieldInputProps('pickup-notes', errors.notes)}
        />
      </Field>
      <div className="booking-actions">
        <SubmitButton busy={create.isPending} busyLabel={t('portal.pickups.requesting')}>
          {t('portal.pickups.submit')}
        </SubmitButton>
      </div>
    </form>
  );
}
