import './address-book.css';
import { useState, type FormEvent } from 'react';
import type { NotificationChoices } from '@/gen/logistics/v1/customer_portal_service_pb';
import { TrackingEvent } from '@/gen/logistics/v1/shipment_pb';
import { Field, FormErrors } from '@/components/ui/Field';
import { ErrorAlert } from '@/components/ui/ErrorAlert';
import { Spinner } from '@/components/ui/Spinner';
import { SubmitButton } from '@/components/ui/SubmitButton';
import { LANGUAGES } from '@/config/languages';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { currentLanguage, useMessages } from '@/lib/i18n';
import { serverMessage } from '@/lib/rpc-errors';
import { toast } from '@/lib/toast';
import { useNotificationChoices, useUpdateNotificationChoices } from '../api/address-book';

const EVENTS = [
  { event: TrackingEvent.IN_TRANSIT, label: 'portal.notifications.in_transit' },
  { event: TrackingEvent.DELAYED, label: 'portal.notifications.delayed' },
  { event: TrackingEvent.ON_HOLD, label: 'portal.notifications.on_hold' },
  { event: TrackingEvent.DELIVERED, label: 'portal.notifications.delivered' },
] as const;

/** /portal/notifications: which moves of the customer's shipments e-mail this user. */
export function NotificationsPage() {
  const t = useMessages('portal');
  useDocumentTitle(t('portal.notifications.title'));
  const choices = useNotificationChoices();
  return (
    <div className="portal-page">
      <div className="portal-page-head">
        <h1>{t('portal.notifications.title')}</h1>
      </div>
      <p className="muted">{t('portal.notifications.intro')}</p>
      {choices.isPending ? (
        <Spinner size="md" label={t('portal.notifications.loading')} />
      ) : choices.error ? (
        <ErrorAlert message={serverMessage(choices.error, t('portal.notifications.load_failed'))} />
      ) : (
        <ChoicesForm key={JSON.stringify([choices.data.events, choices.data.languageCode])} choices={choices.data} />
      )}
    </div>
  );
}

function ChoicesForm({ choices }: { choices: NotificationChoices }) {
  const t = useMessages('portal');
  const save = useUpdateNotificationChoices();
  const [events, setEvents] = useState<TrackingEvent[]>(choices.events);
  // The UI language until the user picks one.
  const [language, setLanguage] = useState(choices.languageCode || currentLanguage());
  const [errors, setErrors] = useState<string[]>([]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setErrors([]);
    try {
      await save.mutateAsync({ choices: { events, languageCode: language } });
      toast.success(t('portal.notifications.saved'));
    } catch (error) {
      setErrors([serverMessage(error, t('portal.notifications.save_failed'))]);
    }
  };

  return (
    <form className="card notifications-form" onSubmit={(e) => void submit(e)}>
      <FormErrors messages={errors} />
      <fieldset className="form-section">
        <legend>{t('portal.notifications.events')}</legend>
        {EVENTS.map(({ event, label }) => (
          <label key={event} className="checkbox-row">
            <input
              type="checkbox"
              checked={events.includes(event)}
              onChange={(e) => setEvents(e.target.checked ? [...events, event] : events.filter((x) => x !== event))}
            />
            {t(label)}
          </label>
        ))}
      </fieldset>
      <Field id="notifications-language" label={t('portal.notifications.language')}>
        <select id="notifications-language" className="select" value={language} onChange={(e) => setLanguage(e.target.value as typeof language)}>
          {LANGUAGES.map((l) => (
            <option key={l.code} value={l.code} lang={l.code}>
              {l.name}
            </option>
          ))}
        </select>
      </Field>
      <div className="booking-actions">
        <SubmitButton busy={save.isPending} busyLabel={t('portal.notifications.saving')}>
          {t('portal.notifications.save')}
        </SubmitButton>
      </div>
    </form>
  );
}
