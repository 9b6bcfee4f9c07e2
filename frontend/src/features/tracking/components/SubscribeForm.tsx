import { useState, type FormEvent } from 'react';
import { useLocation } from 'react-router-dom';
import { BellRing, CheckCircle2, LoaderCircle } from 'lucide-react';
import { Field } from '@/components/ui/Field';
import { fieldInputProps } from '@/components/ui/field-input-props';
import { languageOfPath } from '@/config/languages';
import { singleFieldError } from '@/lib/rpc-errors';
import { subscribeToShipment } from '../api/tracking-access';

const SUBSCRIBE_SENT_MESSAGE = 'Check your inbox: we sent you a link to confirm.';
const SUBSCRIBE_FAILED = 'We could not send the confirmation e-mail. Please try again.';
const EMPTY_EMAIL = 'Enter your e-mail address.';

/** Any visitor follows the shipment by e-mail: a confirmation link is sent first (double
 * opt-in), and every update e-mail has a one-click unsubscribe link. */
export function SubscribeForm({ trackingNumber }: { trackingNumber: string }) {
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
      setError(EMPTY_EMAIL);
      return;
    }
    setBusy(true);
    setError(undefined);
    setSentTo(null);
    try {
      await subscribeToShipment(trackingNumber, value, languageOfPath(pathname));
      setSentTo(value);
    } catch (err) {
      setError(singleFieldError(err, SUBSCRIBE_FAILED));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card subscribe-card no-print" aria-labelledby="subscribe-heading">
      <h2 id="subscribe-heading" className="card-title">
        <BellRing aria-hidden="true" size={20} />
        Get Updates by E-mail
      </h2>
      <p className="card-intro">
        We will e-mail you whenever this shipment&apos;s status changes. Every e-mail has a link to stop at once.
      </p>
      <form className="inline-form" onSubmit={submit} noValidate aria-busy={busy}>
        <Field id="subscribe-email" label="Your e-mail address" error={error}>
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
              Subscribe
            </button>
          </div>
        </Field>
        <p className="form-success" role="status">
          {sentTo && (
            <>
              <CheckCircle2 aria-hidden="true" size={18} />
              {SUBSCRIBE_SENT_MESSAGE}
            </>
          )}
        </p>
      </form>
    </section>
  );
}
