import { useState } from 'react';
import { Plus, Trash2, Truck } from 'lucide-react';
import type { PickupSettings } from '@/gen/logistics/v1/customer_pb';
import { Field, FormErrors } from '@/components/ui/Field';
import { fieldInputProps } from '@/components/ui/field-input-props';
import { SubmitButton } from '@/components/ui/SubmitButton';
import { fieldViolations, serverMessage } from '@/lib/rpc-errors';
import { toast } from '@/lib/toast';
import { useUpdatePickupSettings } from '../api/pickup-settings';
import { WEEKDAYS, pickupInputOf, toPickupSettings, toPickupValues, type PickupSettingsValues } from '../utils/pickup-settings';

type Errors = { cutoff?: string; closedWeekdays?: string; closedDates?: string; dates: Record<number, string> };
const NO_ERRORS: Errors = { dates: {} };

/** When customers may ask for pickups: the same-day cut-off time, the closed weekdays and the
 * closed dates. */
export function PickupSettingsForm({ settings }: { settings: PickupSettings }) {
  const [values, setValues] = useState<PickupSettingsValues>(() => toPickupValues(settings));
  const [errors, setErrors] = useState<Errors>(NO_ERRORS);
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);
  const save = useUpdatePickupSettings();
  const set = (change: Partial<PickupSettingsValues>) => setValues((v) => ({ ...v, ...change }));

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setSaving(true);
    setErrors(NO_ERRORS);
    setFormErrors([]);
    try {
      const saved = await save({ settings: toPickupSettings(values) });
      setValues(toPickupValues(saved));
      toast.success('Pickup settings saved');
    } catch (error) {
      const message = serverMessage(error, 'Failed to save the pickup settings');
      toast.error(message);
      const next: Errors = { dates: {} };
      const general: string[] = [];
      for (const { field, description } of fieldViolations(error)) {
        const input = pickupInputOf(field);
        if (input?.name === 'closedDates' && input.index !== undefined) next.dates[input.index] = description;
        else if (input) next[input.name] = description;
        else general.push(description);
      }
      setErrors(next);
      setFormErrors(fieldViolations(error).length === 0 ? [message] : general);
    } finally {
      setSaving(false);
    }
  };

  return (
    <form className="card admin-form pickup-settings" onSubmit={(event) => void submit(event)} aria-labelledby="pickup-settings-heading" aria-busy={saving} noValidate>
      <h2 id="pickup-settings-heading" className="card-title">
        <Truck aria-hidden="true" size={20} />
        Pickups
      </h2>
      <p className="muted">When customers may ask for a pickup in the portal.</p>
      <FormErrors messages={formErrors} />
      <Field id="pickup-cutoff" label="Same-day cut-off time (UTC)" error={errors.cutoff} hint="Pickups for today can be asked for until then; 00:00 means never the same day.">
        <input
          className="input pickup-cutoff"
          type="time"
          value={values.cutoff}
          onChange={(event) => set({ cutoff: event.target.value })}
          {...fieldInputProps('pickup-cutoff', errors.cutoff, 'Pickups for today can be asked for until then; 00:00 means never the same day.')}
        />
      </Field>
      <fieldset className="pickup-weekdays" aria-describedby={errors.closedWeekdays ? 'pickup-weekdays-error' : undefined}>
        <legend className="field-label">Closed weekdays</legend>
        <div className="pickup-weekday-list">
          {WEEKDAYS.map(({ day, label }) => (
            <label key={day} className="pickup-weekday">
              <input
                type="checkbox"
                checked={values.closedWeekdays.includes(day)}
                onChange={(event) =>
                  set({
                    closedWeekdays: event.target.checked
                      ? [...values.closedWeekdays, day]
                      : values.closedWeekdays.filter((d) => d !== day),
                  })
                }
              />
              {label}
            </label>
          ))}
        </div>
        {errors.closedWeekdays && (
          <p id="pickup-weekdays-error" className="field-error">
            {errors.closedWeekdays}
          </p>
        )}
      </fieldset>
      <fieldset className="pickup-dates" aria-describedby={errors.closedDates ? 'pickup-dates-error' : undefined}>
        <legend className="field-label">Closed dates</legend>
        {values.closedDates.length === 0 && <p className="muted">No closed dates.</p>}
        <ul className="pickup-date-list">
          {values.closedDates.map((date, index) => {
            const id = `pickup-closed-date-${index}`;
            const error = errors.dates[index];
            return (
              <li key={index} className={`pickup-date${error ? ' has-error' : ''}`}>
                <label htmlFor={id} className="visually-hidden">
                  Closed date {index + 1}
                </label>
                <input
                  className="input"
                  type="date"
                  value={date}
                  onChange={(event) => set({ closedDates: values.closedDates.map((d, i) => (i === index ? event.target.value : d)) })}
                  {...fieldInputProps(id, error)}
                />
                <button
                  type="button"
                  className="btn btn-outline btn-sm"
                  onClick={() => set({ closedDates: values.closedDates.filter((_, i) => i !== index) })}
                >
                  <Trash2 aria-hidden="true" size={16} />
                  Remove<span className="visually-hidden"> closed date {index + 1}</span>
                </button>
                {error && (
                  <p id={`${id}-error`} className="field-error">
                    {error}
                  </p>
                )}
              </li>
            );
          })}
        </ul>
        {errors.closedDates && (
          <p id="pickup-dates-error" className="field-error">
            {errors.closedDates}
          </p>
        )}
        <button
          type="button"
          className="btn btn-outline btn-sm"
          onClick={() => set({ closedDates: [...values.closedDates, ''] })}
          disabled={values.closedDates.length >= 100}
        >
          <Plus aria-hidden="true" size={16} />
          Add a closed date
        </button>
      </fieldset>
      <div className="form-actions">
        <SubmitButton busy={saving} busyLabel="Saving...">
          Save
        </SubmitButton>
      </div>
    </form>
  );
}
