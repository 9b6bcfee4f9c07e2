import { useState, type FormEvent } from 'react';
import { useLocation } from 'react-router-dom';
import { BellRing, CheckCircle2, LoaderCircle } from 'lucide-react';
import { Field } from '@/components/ui/Field';
import { fieldInputProps } from '@/components/ui/field-input-props';
import { languageOfPath } from '@/config/languages';
import { useMessages } from '@/lib/i18n';
import { subscribeToShipment } from '../api/tracking-access';
import { callErrorMessage, SUBSCRIBE_ERRORS } from '../utils/errors';
import { KeepWords } from '@/components/ui/KeepWords';

/** Any visitor follows the shipment by e-mail: a confirmation link is sent first (double
 * opt-in), and every update e-mail has a one-click unsubscribe link. */
export function SubscribeForm({ trackingNumber }: { trackingNumber: string }) {
  const t = useMessages('track');
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { pathname } = useLocation();

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const value = email.trim();
    if (!value) {
      setError(t('track.subscribe.empty'));
      return;
    }
    setBusy(true);
    setError(undefined);
    setSentTo(null);
    try {
      await subscribeToShipment(trackingNumber, value, languageOfPath(pathname));
      setSentTo(value);
    } catch (err) {
      setError(callErrorMessage(err, SUBSCRIBE_ERRORS));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card subscribe-card no-print" aria-labelledby="subscribe-heading">
      <h2 id="subscribe-heading" className="card-title">
        <BellRing aria-hidden="true" size={20} />
        <KeepWords text={t('track.subscribe.title')} />
      </h2>
      <p className="card-intro"><KeepWords text={t('track.subscribe.intro')} /></p>
      <form className="inline-form" onSubmit={submit} noValidate aria-busy={busy}>
        <Field id="subscribe-email" label={t('track.subscribe.label')} error={error}>
          <div className="inline-form-row">
            <input
              className="input"
              type="email"
              name="email"
              autoComplete="email"
              maxLength={254}
              value={email}
              onChange={(event) => setEmail(event.target.value)}
              {...fieldInputProps('subscribe-email', error)}
            />
            <button type="submit" className="btn btn-primary" disabled={busy}>
              {busy && <LoaderCircle className="icon-spin" aria-hidden="true" size={18} />}
              {t('track.subscribe.submit')}
            </button>
          </div>
        </Field>
        <p className="form-success" role="status">
          {sentTo && (
            <>
              <CheckCircle2 aria-hidden="true" size={18} />
              {t('track.subscribe.sent')}
            </>
          )}
        </p>
      </form>
    </section>
  );
}
