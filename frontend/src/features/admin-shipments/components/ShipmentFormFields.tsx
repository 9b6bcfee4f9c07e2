import type { HTMLInputTypeAttribute } from 'react';
import { useFieldArray, type FieldPath, type UseFormReturn } from 'react-hook-form';
import { Plus, Trash2 } from 'lucide-react';
import { Field } from '@/components/ui/Field';
import { fieldInputProps } from '@/components/ui/field-input-props';
import { LANGUAGES } from '@/config/languages';
import { MODE_OPTIONS, PAYMENT_OPTIONS, STATUS_OPTIONS, TYPE_OPTIONS, type EnumOption } from '@/utils/shipment';
import { parseDollarsToCents } from '../utils/money';
import { blankPackage, type ShipmentFormValues } from '../utils/shipment-form';

type Name = FieldPath<ShipmentFormValues>;

type FormFieldsProps = {
  form: UseFormReturn<ShipmentFormValues>;
  /** Create: every input but Comments is required by the browser. Edit: an empty input keeps
   * the stored value, so nothing is required. */
  mode: 'create' | 'edit';
  idPrefix: string;
};

const FREIGHT_FORMAT_MESSAGE = 'Enter the amount in dollars, with at most two decimals (e.g. 1250.50).';

/** Every field of a shipment an admin types, shared by the Create and Edit modals. */
export function ShipmentFormFields({ form, mode, idPrefix }: FormFieldsProps) {
  const { register, control, formState } = form;
  const required = mode === 'create';
  const packages = useFieldArray({ control, name: 'packages' });

  const idFor = (name: string) => `${idPrefix}-${name.replace(/\./g, '-')}`;
  const errorOf = (name: Name) => form.getFieldState(name, formState).error?.message;

  const input = (
    name: Name,
    label: string,
    options: {
      type?: HTMLInputTypeAttribute;
      required?: boolean;
      step?: string;
      min?: string;
      inputMode?: 'decimal' | 'numeric' | 'email' | 'tel' | 'text';
      autoComplete?: string;
      wide?: boolean;
      validate?: (value: string) => true | string;
    } = {},
  ) => {
    const id = idFor(name);
    const error = errorOf(name);
    return (
      <Field id={id} label={label} error={error} className={options.wide ? 'field-wide' : undefined}>
        <input
          className="input"
          type={options.type ?? 'text'}
          required={options.required ?? required}
          step={options.step}
          min={options.min}
          inputMode={options.inputMode}
          autoComplete={options.autoComplete ?? 'off'}
          {...fieldInputProps(id, error)}
          {...register(name, options.validate ? { validate: (value) => options.validate!(String(value)) } : {})}
        />
      </Field>
    );
  };

  const select = <E extends number>(name: Name, label: string, choices: readonly EnumOption<E>[]) => {
    const id = idFor(name);
    const error = errorOf(name);
    return (
      <Field id={id} label={label} error={error}>
        <select className="select" required={required} {...fieldInputProps(id, error)} {...register(name)}>
          <option value="">{required ? 'Select…' : 'Keep current'}</option>
          {choices.map((choice) => (
            <option key={choice.key} value={choice.key}>
              {choice.label}
            </option>
          ))}
        </select>
      </Field>
    );
  };

  const integer = (name: Name, label: string, min = '1') =>
    input(name, label, { type: 'number', step: '1', min, inputMode: 'numeric' });
  const decimal = (name: Name, label: string) => input(name, label, { type: 'number', step: 'any', min: '0', inputMode: 'decimal' });

  const party = (side: 'shipper' | 'receiver', legend: string) => (
    <fieldset className="form-section">
      <legend>{legend}</legend>
      <div className="form-grid">
        {input(`${side}.name`, 'Name', { autoComplete: 'off' })}
        {input(`${side}.phone`, 'Phone', { type: 'tel', inputMode: 'tel' })}
        {input(`${side}.address`, 'Address', { wide: true })}
        {input(`${side}.email`, 'Email', { type: 'email', wide: true })}
      </div>
    </fieldset>
  );

  const remarksId = idFor('remarks');
  const commentsId = idFor('comments');
  const packagesError = formState.errors.packages?.root?.message ?? formState.errors.packages?.message;

  return (
    <>
      {mode === 'edit' && (
        <fieldset className="form-section">
          <legend>Tracking</legend>
          <div className="form-grid">
            <Field id={idFor('status')} label="Status" error={errorOf('status')}>
              <select className="select" {...fieldInputProps(idFor('status'), errorOf('status'))} {...register('status')}>
                {STATUS_OPTIONS.map((choice) => (
                  <option key={choice.key} value={choice.key}>
                    {choice.label}
                  </option>
                ))}
              </select>
            </Field>
            {input('currentLocation', 'Current Location', { required: false })}
            <Field
              id={remarksId}
              label="Remarks"
              error={errorOf('remarks')}
              hint="Added to the shipment history when the status or location changes."
              className="field-wide"
            >
              <textarea
                className="textarea"
                rows={2}
                {...fieldInputProps(remarksId, errorOf('remarks'), 'Added to the shipment history when the status or location changes.')}
                {...register('remarks')}
              />
            </Field>
            <label className="checkbox-row field-wide">
              <input type="checkbox" {...register('remarksPublic')} />
              Public remark: anyone with the tracking number may read it (otherwise only the shipper, the receiver and
              staff)
            </label>
          </div>
        </fieldset>
      )}

      {party('shipper', 'Shipper')}
      {party('receiver', 'Receiver')}

      <fieldset className="form-section">
        <legend>Shipment</legend>
        <div className="form-grid">
          {input('origin', 'Origin')}
          {input('destination', 'Destination')}
          {input('carrier', 'Carrier')}
          {select('type', 'Type of Shipment', TYPE_OPTIONS)}
          {select('mode', 'Shipment Mode', MODE_OPTIONS)}
          {select('paymentMode', 'Payment Mode', PAYMENT_OPTIONS)}
          {input('product', 'Product')}
          {integer('productQuantity', 'Product Quantity')}
          {integer('packageCount', 'Package Count')}
          {input('totalFreight', 'Total Freight ($)', {
            type: 'number',
            step: '0.01',
            min: '0',
            inputMode: 'decimal',
            validate: (value) =>
              value.trim() === '' || parseDollarsToCents(value) !== null ? true : FREIGHT_FORMAT_MESSAGE,
          })}
          {decimal('weight', 'Weight (kg)')}
          <Field id={idFor('languageCode')} label="Language of e-mails" error={errorOf('languageCode')}>
            <select
              className="select"
              {...fieldInputProps(idFor('languageCode'), errorOf('languageCode'))}
              {...register('languageCode')}
            >
              {LANGUAGES.map((language) => (
                <option key={language.code} value={language.code} lang={language.code}>
                  {language.name}
                </option>
              ))}
            </select>
          </Field>
        </div>
      </fieldset>

      <fieldset className="form-section">
        <legend>Schedule</legend>
        <div className="form-grid">
          {input('expectedDeliveryDate', 'Expected Delivery Date', { type: 'date' })}
          {input('departureTime', 'Departure Time', { type: 'time' })}
          {input('pickupDate', 'Pickup Date', { type: 'date' })}
          {input('pickupTime', 'Pickup Time', { type: 'time' })}
        </div>
      </fieldset>

      <fieldset className="form-section">
        <legend>Packages</legend>
        {packagesError && (
          <p className="field-error" id={idFor('packages-error')}>
            {packagesError}
          </p>
        )}
        <ol className="package-rows">
          {packages.fields.map((row, index) => (
            <li key={row.id}>
              <fieldset className="package-row">
                <legend>Package {index + 1}</legend>
                <div className="form-grid form-grid-4">
                  {integer(`packages.${index}.quantity`, 'Quantity')}
                  {input(`packages.${index}.pieceType`, 'Piece Type')}
                  {input(`packages.${index}.description`, 'Description', { wide: true })}
                  {decimal(`packages.${index}.length`, 'Length (cm)')}
                  {decimal(`packages.${index}.width`, 'Width (cm)')}
                  {decimal(`packages.${index}.height`, 'Height (cm)')}
                  {decimal(`packages.${index}.weight`, 'Weight (kg)')}
                </div>
                <button
                  type="button"
                  className="btn btn-outline btn-sm package-remove"
                  aria-label={`Remove package ${index + 1}`}
                  disabled={packages.fields.length <= 1}
                  onClick={() => packages.remove(index)}
                >
                  <Trash2 aria-hidden="true" size={16} />
                  Remove
                </button>
              </fieldset>
            </li>
          ))}
        </ol>
        <button type="button" className="btn btn-outline btn-sm" onClick={() => packages.append(blankPackage())}>
          <Plus aria-hidden="true" size={16} />
          Add package
        </button>
      </fieldset>

      <Field id={commentsId} label="Comments" error={errorOf('comments')}>
        <textarea className="textarea" rows={3} {...fieldInputProps(commentsId, errorOf('comments'))} {...register('comments')} />
      </Field>
    </>
  );
}
