import { useState } from 'react';
import { AlertTriangle } from 'lucide-react';
import type { ExceptionSettings } from '@/gen/logistics/v1/shipment_exception_service_pb';
import { Field, FormErrors } from '@/components/ui/Field';
import { fieldInputProps } from '@/components/ui/field-input-props';
import { SubmitButton } from '@/components/ui/SubmitButton';
import { fieldViolations, serverMessage } from '@/lib/rpc-errors';
import { toast } from '@/lib/toast';
import { useUpdateExceptionSettings } from '../api/exception-settings';
import {
  DIGEST_LANGUAGES,
  MAX_STALLED_HOURS,
  MIN_STALLED_HOURS,
  STALLED_MODES,
  exceptionFieldOf,
  exceptionSettingsErrors,
  hourLabel,
  toExceptionSettings,
  toExceptionValues,
  type ExceptionSettingsField,
  type ExceptionSettingsValues,
} from '../utils/exception-settings';

type Errors = Partial<Record<ExceptionSettingsField, string>>;

const HOURS = Array.from({ length: 24 }, (_, hour) => hour);
const EMAIL_HINT = 'Where the daily digest of open exceptions goes. Leave it empty to send none.';
const HOUR_HINT = "In the company's time zone.";

/** When a shipment counts as stalled, per mode, and where and when the daily digest of open
 * exceptions goes. */
export function ExceptionSettingsForm({ settings }: { settings: ExceptionSettings }) {
  const [values, setValues] = useState<ExceptionSettingsValues>(() => toExceptionValues(settings));
  const [errors, setErrors] = useState<Errors>({});
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);
  const save = useUpdateExceptionSettings();
  const set = (change: Partial<ExceptionSettingsValues>) => setValues((v) => ({ ...v, ...change }));

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setFormErrors([]);
    const known = exceptionSettingsErrors(values);
    setErrors(known);
    if (Object.keys(known).length > 0) return;
    setSaving(true);
    try {
      const saved = await save({ settings: toExceptionSettings(values) });
      setValues(toExceptionValues(saved));
      toast.success('Exception settings saved');
    } catch (error) {
      const message = serverMessage(error, 'Failed to save the exception settings');
      toast.error(message);
      const next: Errors = {};
      const general: string[] = [];
      for (const { field, description } of fieldViolations(error)) {
        const input = exceptionFieldOf(field);
        if (input) next[input] = description;
        else general.push(description);
      }
      setErrors(next);
      setFormErrors(fieldViolations(error).length === 0 ? [message] : general);
    } finally {
      setSaving(false);
    }
  };

  return (
    <form
      className="card admin-form exception-settings"
      onSubmit={(event) => void submit(event)}
      aria-labelledby="exception-settings-heading"
      aria-busy={saving}
      noValidate
    >
      <h2 id="exception-settings-heading" className="card-title">
        <AlertTriangle aria-hidden="true" size={20} />
        Exceptions
      </h2>
      <p className="muted">When a shipment needs attention, and the daily digest of what does.</p>
      <FormErrors messages={formErrors} />
      <fieldset className="exception-stalled" aria-describedby="exception-stalled-hint">
        <legend className="field-label">Stalled after (hours)</legend>
        <p id="exception-stalled-hint" className="field-hint">
          A shipment not delivered nor on hold is stalled when it has had no history entry for this long ({MIN_STALLED_HOURS} to{' '}
          {MAX_STALLED_HOURS} hours).
        </p>
        <div className="exception-stalled-fields">
          {STALLED_MODES.map(({ name, label }) => {
            const id = `exception-stalled-${name}`;
            return (
              <Field key={name} id={id} label={label} error={errors[name]}>
                <input
                  className="input"
                  type="number"
                  inputMode="numeric"
                  min={MIN_STALLED_HOURS}
                  max={MAX_STALLED_HOURS}
                  step={1}
                  required
                  value={values[name]}
                  onChange={(event) => set({ [name]: event.target.value })}
                  {...fieldInputProps(id, errors[name])}
                />
              </Field>
            );
          })}
        </div>
      </fieldset>
      <Field id="exception-operations-email" label="Operations e-mail" error={errors.operationsEmail} hint={EMAIL_HINT}>
        <input
          className="input"
          type="email"
          autoComplete="off"
          maxLength={254}
          value={values.operationsEmail}
          onChange={(event) => set({ operationsEmail: event.target.value })}
          {...fieldInputProps('exception-operations-email', errors.operationsEmail, EMAIL_HINT)}
        />
      </Field>
      <div className="exception-digest-fields">
        <Field id="exception-digest-language" label="Digest language" error={errors.languageCode}>
          <select
            className="select"
            value={values.languageCode}
            onChange={(event) => set({ languageCode: event.target.value })}
            {...fieldInputProps('exception-digest-language', errors.languageCode)}
          >
            {DIGEST_LANGUAGES.map((language) => (
              <option key={language.code} value={language.code} lang={language.code}>
                {language.label}
              </option>
            ))}
          </select>
        </Field>
        <Field id="exception-digest-hour" label="Digest hour" error={errors.digestHour} hint={HOUR_HINT}>
          <select
            className="select"
            value={values.digestHour}
            onChange={(event) => set({ digestHour: event.target.value })}
            {...fieldInputProps('exception-digest-hour', errors.digestHour, HOUR_HINT)}
          >
            {HOURS.map((hour) => (
              <option key={hour} value={String(hour)}>
                {hourLabel(hour)}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <div className="form-actions">
        <SubmitButton busy={saving} busyLabel="Saving...">
          Save
        </SubmitButton>
      </div>
    </form>
  );
}
