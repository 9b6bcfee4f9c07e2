import { useState, type FormEvent } from 'react';
import { LoaderCircle } from 'lucide-react';
import { Field } from '@/components/ui/Field';
import { fieldInputProps } from '@/components/ui/field-input-props';
import type { Shipment } from '@/gen/logistics/v1/shipment_pb';
import { useMessages } from '@/lib/i18n';
import { sendTrackingAccessLink, verifyTrackingAccess } from '../api/tracking-access';
import { callErrorMessage, SEND_LINK_ERRORS, VERIFY_ERRORS } from '../utils/errors';
import { KeepWords } from '@/components/ui/KeepWords';

export const VERIFY_INPUT_ID = 'verify-answer';

/** A party proves who they are (the shipper's or the receiver's e-mail address, or the last 4
 * digits of either phone); `onVerified` gets the FULL view. The server's message (a wrong
 * answer, too many attempts) is shown at the field. "Send me a link" e-mails the parties their
 * link instead, which guessers cannot use up. */
export function VerifyAccessForm({
  trackingNumber,
  onVerified,
}: {
  trackingNumber: string;
  onVerified: (shipment: Shipment) => void;
}) {
  const t = useMessages('track');
  const [answer, setAnswer] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [sending, setSending] = useState(false);
  const [linkOutcome, setLinkOutcome] = useState<{ ok: boolean; text: string } | undefined>();

  const sendLink = async () => {
    if (sending) return;
    setSending(true);
    setLinkOutcome(undefined);
    try {
      await sendTrackingAccessLink(trackingNumber);
      setLinkOutcome({ ok: true, text: t('track.verify.link_sent') });
    } catch (err) {
      setLinkOutcome({ ok: false, text: callErrorMessage(err, SEND_LINK_ERRORS) });
    } finally {
      setSending(false);
    }
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const value = answer.trim();
    if (!value) {
      setError(t('track.verify.empty'));
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      const shipment = await verifyTrackingAccess(trackingNumber, value);
      onVerified(shipment);
    } catch (err) {
      setError(callErrorMessage(err, VERIFY_ERRORS));
    } finally {
      setBusy(false);
    }
  };

  const hint = t('track.verify.hint');
  return (
    <form className="inline-form" onSubmit={submit} noValidate aria-busy={busy}>
      <Field id={VERIFY_INPUT_ID} label={t('track.verify.label')} error={error} hint={hint}>
        <div className="inline-form-row">
          <input
            className="input"
            type="text"
            name="answer"
            autoComplete="email"
            autoCapitalize="none"
            spellCheck={false}
            maxLength={254}
            value={answer}
            onChange={(event) => setAnswer(event.target.value)}
            {...fieldInputProps(VERIFY_INPUT_ID, error, hint)}
          />
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy && <LoaderCircle className="icon-spin" aria-hidden="true" size={18} />}
            {t('track.verify.submit')}
          </button>
        </div>
      </Field>
      <div className="verify-send-link">
        <p className="card-intro verify-send-link-intro"><KeepWords text={t('track.verify.send_link_intro')} /></p>
        <button type="button" className="btn btn-outline" onClick={sendLink} disabled={sending} aria-busy={sending}>
          {sending && <LoaderCircle className="icon-spin" aria-hidden="true" size={18} />}
          {t('track.verify.send_link')}
        </button>
        <p className={linkOutcome?.ok === false ? 'field-error' : 'verify-send-link-outcome'} role="status" aria-live="polite">
          {linkOutcome?.text}
        </p>
      </div>
    </form>
  );
}
