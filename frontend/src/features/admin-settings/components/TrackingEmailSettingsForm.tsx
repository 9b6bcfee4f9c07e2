import '@/components/ui/data-table.css';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Mail } from 'lucide-react';
import { FormErrors } from '@/components/ui/Field';
import { SubmitButton } from '@/components/ui/SubmitButton';
import type { TrackingEmailSettings } from '@/gen/logistics/v1/shipment_pb';
import { fieldViolations, serverMessage } from '@/lib/rpc-errors';
import { toast } from '@/lib/toast';
import { useUpdateTrackingEmailSettings } from '../api/tracking-email-settings';
import { appliesTo, checkboxLabel, EVENT_ROWS, RECIPIENTS, toFormValues, toSettings, type EmailRuleValues } from '../utils/email-rules';

const SAVED_MESSAGE = 'Settings saved successfully';
const SAVE_FAILED_MESSAGE = 'Failed to save settings';

/** Which shipment events e-mail the shipper, the receiver and the visitors who subscribed:
 * a table of checkboxes, one row per event. */
export function TrackingEmailSettingsForm({ settings }: { settings: TrackingEmailSettings }) {
  const form = useForm<EmailRuleValues>({ defaultValues: toFormValues(settings) });
  const { register, formState } = form;
  const updateTrackingEmailSettings = useUpdateTrackingEmailSettings();
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const saving = formState.isSubmitting;

  const submit = form.handleSubmit(async (values) => {
    setFormErrors([]);
    try {
      const saved = await updateTrackingEmailSettings(toSettings(values));
      form.reset(toFormValues(saved));
      toast.success(SAVED_MESSAGE);
    } catch (error) {
      const message = serverMessage(error, SAVE_FAILED_MESSAGE);
      toast.error(message);
      const violations = fieldViolations(error);
      setFormErrors(violations.length > 0 ? violations.map((v) => v.description) : [message]);
    }
  });

  return (
    <form className="card admin-form" onSubmit={submit} aria-labelledby="email-rules-heading" aria-busy={saving}>
      <h2 id="email-rules-heading" className="card-title">
        <Mail aria-hidden="true" size={20} />
        Tracking E-mails
      </h2>
      <p className="muted" id="email-rules-intro">
        Choose who gets an e-mail when a shipment is created and when its status changes. Subscribers are visitors who
        asked for a shipment&apos;s updates on the tracking page and confirmed their address.
      </p>
      <FormErrors messages={formErrors} />
      <div className="table-scroll" role="region" aria-label="E-mail rules" tabIndex={0}>
        <table className="data-table email-rules-table" aria-describedby="email-rules-intro">
          <caption className="visually-hidden">Who gets an e-mail for each shipment event</caption>
          <thead>
            <tr>
              <th scope="col">Event</th>
              {RECIPIENTS.map((r) => (
                <th key={r.key} scope="col">
                  {r.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {EVENT_ROWS.map((row) => (
              <tr key={row.key} data-event={row.key}>
                <th scope="row">
                  <span className="email-rule-event">{row.label}</span>
                  <span className="email-rule-description">{row.description}</span>
                </th>
                {RECIPIENTS.map((recipient) => (
                  <td key={recipient.key}>
                    {appliesTo(row.key, recipient.key) ? (
                      <label className="rule-checkbox">
                        <input type="checkbox" {...register(`${row.key}.${recipient.key}`)} />
                        <span className="visually-hidden">{checkboxLabel(row, recipient.key)}</span>
                      </label>
                    ) : (
                      <span className="muted">
                        <span aria-hidden="true">—</span>
                        <span className="visually-hidden">Not applicable: nobody has subscribed yet</span>
                      </span>
                    )}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="form-actions">
        <SubmitButton busy={saving} busyLabel="Saving...">
          Save
        </SubmitButton>
      </div>
    </form>
  );
}
