import { useState, type FormEvent } from 'react';
import { ArrowLeft, Crosshair, Eraser } from 'lucide-react';
import type { Shipment } from '@/gen/logistics/v1/shipment_pb';
import { Field, FormErrors } from '@/components/ui/Field';
import { fieldInputProps } from '@/components/ui/field-input-props';
import { SignaturePad } from '@/components/ui/SignaturePad';
import { useMessages } from '@/lib/i18n';
import { toast } from '@/lib/toast';
import { signaturePng, type Stroke } from '@/utils/signature';
import { enqueue, newRequestId, type AttemptReason, type CourierEvent } from '../utils/outbox';
import { eventLabel, reasonLabel, statusLabel } from '../utils/labels';

/** A photo of the delivery: what RecordProofOfDelivery takes. */
const MAX_PHOTO_BYTES = 8_000_000;
const MAX_PLACE = 200;
const MAX_RECIPIENT = 100;

const EVENTS: readonly CourierEvent[] = ['picked_up', 'at_hub', 'out_for_delivery', 'delivered', 'attempted'];
const REASONS: readonly AttemptReason[] = ['nobody_home', 'refused', 'address_problem'];

type Errors = Partial<Record<'event' | 'place' | 'recipient' | 'photo', string>>;

/** One shipment: what the courier knows of it, and the form that records what happened. The
 * shipment is unknown when its label was scanned offline and it is not on the round. */
export function ShipmentScreen({
  trackingNumber,
  shipment,
  online,
  onBack,
}: {
  trackingNumber: string;
  shipment: Shipment | undefined;
  online: boolean;
  onBack: () => void;
}) {
  const t = useMessages('courier');
  const [event, setEvent] = useState<CourierEvent | ''>('');
  const [place, setPlace] = useState(shipment?.currentLocation ?? '');
  const [reason, setReason] = useState<AttemptReason>('nobody_home');
  const [recipient, setRecipient] = useState('');
  const [strokes, setStrokes] = useState<Stroke[]>([]);
  const [photo, setPhoto] = useState<File | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);
  const [locating, setLocating] = useState(false);

  const usePosition = () => {
    if (!('geolocation' in navigator)) {
      setErrors((e) => ({ ...e, place: t('courier.event.position_failed') }));
      return;
    }
    setLocating(true);
    navigator.geolocation.getCurrentPosition(
      ({ coords }) => {
        setLocating(false);
        setPlace(`${coords.latitude.toFixed(5)}, ${coords.longitude.toFixed(5)}`);
        setErrors((e) => ({ ...e, place: undefined }));
      },
      () => {
        setLocating(false);
        setErrors((e) => ({ ...e, place: t('courier.event.position_failed') }));
      },
      { timeout: 15_000, maximumAge: 60_000 },
    );
  };

  const submit = async (formEvent: FormEvent) => {
    formEvent.preventDefault();
    const next: Errors = {};
    if (!event) next.event = t('courier.event.choose');
    if (place.trim() === '') next.place = t('courier.event.place_required');
    if (event === 'delivered' && recipient.trim() === '') next.recipient = t('courier.event.recipient_required');
    if (event === 'delivered' && photo && (photo.size > MAX_PHOTO_BYTES || !/^image\/(jpeg|png)$/.test(photo.type))) {
      next.photo = t('courier.event.photo_too_large');
    }
    setErrors(next);
    if (Object.keys(next).length > 0 || !event) return;
    setSaving(true);
    setFormError([]);
    try {
      const signature = event === 'delivered' ? await signaturePng(strokes) : null;
      await enqueue({
        requestId: newRequestId(),
        trackingNumber,
        shipmentId: shipment?.id ?? '',
        event,
        reason: event === 'attempted' ? reason : undefined,
        place: place.trim(),
        recordedAt: new Date().toISOString(),
        proof:
          event === 'delivered'
            ? {
                recipientName: recipient.trim(),
                signature: signature ? new Blob([signature as BlobPart], { type: 'image/png' }) : undefined,
                photo: photo ?? undefined,
              }
            : undefined,
      });
      const values = { event: eventLabel(t, event), number: trackingNumber };
      toast.success(online ? t('courier.event.saved', values) : t('courier.event.saved_offline', values));
      onBack();
    } catch {
      setFormError([t('courier.event.save_failed')]);
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className="courier-shipment" aria-labelledby="courier-shipment-heading">
      <button type="button" className="btn btn-outline btn-sm courier-back" onClick={onBack}>
        <ArrowLeft aria-hidden="true" size={16} className="flip-rtl" />
        {t('courier.shipment.back')}
      </button>
      <h2 id="courier-shipment-heading">{t('courier.shipment.heading', { number: trackingNumber })}</h2>
      {shipment ? (
        <dl className="courier-facts">
          <dt>{t('courier.shipment.status')}</dt>
          <dd>{statusLabel(t, shipment.status)}</dd>
          <dt>{t('courier.shipment.receiver')}</dt>
          <dd>
            <bdi>{shipment.receiver?.name}</bdi>
            {shipment.receiver?.address && (
              <>
                <br />
                <bdi>{shipment.receiver.address}</bdi>
              </>
            )}
          </dd>
          <dt>{t('courier.shipment.now_at')}</dt>
          <dd>
            <bdi>{shipment.currentLocation}</bdi>
          </dd>
        </dl>
      ) : (
        <p className="courier-warning">{t('courier.shipment.not_on_round')}</p>
      )}

      <form className="courier-card form-stack" onSubmit={(e) => void submit(e)} noValidate aria-busy={saving}>
        <FormErrors messages={formError} />
        <fieldset className={`courier-events${errors.event ? ' has-error' : ''}`} aria-describedby={errors.event ? 'courier-event-error' : undefined}>
          <legend className="field-label">{t('courier.event.legend')}</legend>
          {EVENTS.map((value) => (
            <label key={value} className="courier-event">
              <input type="radio" name="courier-event" value={value} checked={event === value} onChange={() => setEvent(value)} />
              {eventLabel(t, value)}
            </label>
          ))}
          {errors.event && (
            <p id="courier-event-error" className="field-error">
              {errors.event}
            </p>
          )}
        </fieldset>
        {event === 'attempted' && (
          <Field id="courier-reason" label={t('courier.event.reason')}>
            <select className="select" value={reason} onChange={(e) => setReason(e.target.value as AttemptReason)} {...fieldInputProps('courier-reason')}>
              {REASONS.map((value) => (
                <option key={value} value={value}>
                  {reasonLabel(t, value)}
                </option>
              ))}
            </select>
          </Field>
        )}
        <Field id="courier-place" label={t('courier.event.place')} error={errors.place}>
          <input
            className="input"
            maxLength={MAX_PLACE}
            value={place}
            onChange={(e) => setPlace(e.target.value)}
            {...fieldInputProps('courier-place', errors.place)}
          />
        </Field>
        <button type="button" className="btn btn-outline btn-sm" onClick={usePosition} disabled={locating}>
          <Crosshair aria-hidden="true" size={16} />
          {t('courier.event.use_position')}
        </button>
        {event === 'delivered' && (
          <>
            <Field id="courier-recipient" label={t('courier.event.recipient')} error={errors.recipient}>
              <input
                className="input"
                maxLength={MAX_RECIPIENT}
                autoComplete="off"
                value={recipient}
                onChange={(e) => setRecipient(e.target.value)}
                {...fieldInputProps('courier-recipient', errors.recipient)}
              />
            </Field>
            <div className="field">
              <p className="field-label" id="courier-signature-label">
                {t('courier.event.signature')}
              </p>
              <div role="group" aria-labelledby="courier-signature-label">
                <SignaturePad strokes={strokes} onChange={setStrokes} />
              </div>
              <button type="button" className="btn btn-outline btn-sm" onClick={() => setStrokes([])} disabled={strokes.length === 0}>
                <Eraser aria-hidden="true" size={16} />
                {t('courier.event.clear_signature')}
              </button>
            </div>
            <Field id="courier-photo" label={t('courier.event.photo')} error={errors.photo}>
              <input
                type="file"
                className="input"
                accept="image/jpeg,image/png"
                capture="environment"
                onChange={(e) => setPhoto(e.target.files?.[0] ?? null)}
                {...fieldInputProps('courier-photo', errors.photo)}
              />
            </Field>
          </>
        )}
        <button type="submit" className="btn btn-primary courier-save" disabled={saving}>
          {t('courier.event.save')}
        </button>
      </form>
    </section>
  );
}
