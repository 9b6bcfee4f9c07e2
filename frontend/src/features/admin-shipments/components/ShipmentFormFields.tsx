import { useEffect, type ReactNode } from 'react';
import { useFieldArray, useWatch, type FieldPath, type UseFormReturn } from 'react-hook-form';
import { Plus, Trash2 } from 'lucide-react';
import { Field } from '@/components/ui/Field';
import { fieldInputProps } from '@/components/ui/field-input-props';
import type { Control, InputAttributes } from '../utils/field-kinds';
import {
  PACKAGE_FIELDS,
  PARTY_FIELDS,
  SHIPMENT_FIELDS,
  type FormGroup,
  type ScalarEntry,
  type ShipmentFieldEntry,
} from '../utils/shipment-fields';
import { blankPackage, type ShipmentFormValues } from '../utils/shipment-form';
import { FAILED_ATTEMPT_OPTIONS } from '../utils/failed-attempt';
import { CustomerPicker } from './CustomerPicker';

type Name = FieldPath<ShipmentFormValues>;

type FormFieldsProps = {
  form: UseFormReturn<ShipmentFormValues>;
  /** Edit adds the tracking inputs. In both, every input but Comments is required by the
   * browser: an emptied input means empty, which only Comments may be. */
  mode: 'create' | 'edit';
  idPrefix: string;
  /** The user reads customers: the Customer input is shown (else the shipment keeps its own). */
  customers?: boolean;
};

const ENTRIES = SHIPMENT_FIELDS as readonly ShipmentFieldEntry[];

function inputAttributes(control: Control): InputAttributes {
  return control.element === 'input' ? control.attributes : {};
}

/** Every field of a shipment, as SHIPMENT_FIELDS lists them, shared by the Create and Edit modals. */
export function ShipmentFormFields({ form, mode, idPrefix, customers = false }: FormFieldsProps) {
  const { register, control, formState } = form;
  const packages = useFieldArray({ control, name: 'packages' });
  // The figures the packages give (package count, weight), as the inputs show them.
  const lines = useWatch({ control, name: 'packages' });
  const followed = new Map<Name, string>();
  for (const entry of ENTRIES) {
    if (entry.type !== 'scalar' || !entry.input.follows) continue;
    const value = entry.input.follows(lines);
    if (value !== null) followed.set(entry.input.name as Name, value);
  }
  const followedKey = JSON.stringify([...followed]);
  useEffect(() => {
    for (const [name, value] of JSON.parse(followedKey) as [Name, string][]) {
      if (form.getValues(name) !== value) form.setValue(name, value);
    }
  }, [followedKey, form]);

  const idFor = (name: string) => `${idPrefix}-${name.replace(/\./g, '-')}`;
  const errorOf = (name: Name) => form.getFieldState(name, formState).error?.message;

  const input = (name: Name, label: string, attributes: InputAttributes, wide?: boolean, hint?: string) => {
    const id = idFor(name);
    const error = errorOf(name);
    const { validate } = attributes;
    const readOnly = followed.has(name);
    return (
      <Field
        key={name}
        id={id}
        label={label}
        error={error}
        hint={readOnly ? hint : undefined}
        className={wide ? 'field-wide' : undefined}
      >
        <input
          className="input"
          type={attributes.type ?? 'text'}
          required
          readOnly={readOnly}
          step={attributes.step}
          min={attributes.min}
          inputMode={attributes.inputMode}
          autoComplete="off"
          {...fieldInputProps(id, error, readOnly ? hint : undefined)}
          {...register(name, validate ? { validate: (value) => validate(String(value)) } : {})}
        />
      </Field>
    );
  };

  const scalar = (entry: ScalarEntry) => {
    const name = entry.input.name as Name;
    const { control: kindControl } = entry.kind;
    const id = idFor(name);
    const error = errorOf(name);
    switch (kindControl.element) {
      case 'input':
        return input(name, entry.label, kindControl.attributes, false, entry.input.followsHint);
      case 'textarea':
        return (
          <Field key={name} id={id} label={entry.label} error={error}>
            <textarea className="textarea" rows={3} {...fieldInputProps(id, error)} {...register(name)} />
          </Field>
        );
      case 'customer':
        return customers ? <CustomerPicker key={name} form={form} name="customerId" id={id} label={entry.label} error={error} /> : null;
      case 'select':
        return (
          <Field key={name} id={id} label={entry.label} error={error}>
            <select
              className="select"
              required={kindControl.unset || undefined}
              {...fieldInputProps(id, error)}
              {...register(name)}
            >
              {kindControl.unset && <option value="">Select…</option>}
              {kindControl.choices.map((choice) => (
                <option key={choice.key} value={choice.key} lang={choice.lang}>
                  {choice.label}
                </option>
              ))}
            </select>
          </Field>
        );
    }
  };

  const party = (name: 'shipper' | 'receiver', legend: string) => (
    <fieldset key={name} className="form-section">
      <legend>{legend}</legend>
      <div className="form-grid">
        {PARTY_FIELDS.map((f) => input(`${name}.${f.field}`, f.label, f.attributes ?? {}, f.wide))}
      </div>
    </fieldset>
  );

  const remarksId = idFor('remarks');
  // The history entry a tracking change writes; part of the request, not of the shipment.
  const remarks = (
    <>
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
      <Field id={idFor('failed-attempt')} label="Delivery attempt" error={errorOf('failedAttempt')}>
        <select
          className="select"
          {...fieldInputProps(idFor('failed-attempt'), errorOf('failedAttempt'))}
          {...register('failedAttempt')}
        >
          {FAILED_ATTEMPT_OPTIONS.map((option) => (
            <option key={option.value} value={String(option.value)}>
              {option.label}
            </option>
          ))}
        </select>
      </Field>
    </>
  );

  const packagesError = formState.errors.packages?.root?.message ?? formState.errors.packages?.message;
  const packageList = (legend: string) => (
    <fieldset key="packages" className="form-section">
      <legend>{legend}</legend>
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
                {PACKAGE_FIELDS.map((f) =>
                  input(`packages.${index}.${f.name}`, f.label, inputAttributes(f.kind.control), f.wide),
                )}
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
  );

  // The table's order; a fieldset stands where its first field does.
  const shown = ENTRIES.filter((e) => e.type !== 'output' && !(e.type === 'scalar' && e.input.editOnly && mode !== 'edit'));
  const groups = new Set<FormGroup>();
  const blocks: ReactNode[] = [];
  for (const entry of shown) {
    if (entry.type === 'party') blocks.push(party(entry.input.name, entry.label));
    else if (entry.type === 'packages') blocks.push(packageList(entry.label));
    else if (entry.type === 'scalar') {
      const group = entry.input.group ?? null;
      if (group === null) blocks.push(scalar(entry));
      else if (!groups.has(group)) {
        groups.add(group);
        blocks.push(
          <fieldset key={group} className="form-section">
            <legend>{group}</legend>
            <div className="form-grid">
              {shown.map((e) => (e.type === 'scalar' && e.input.group === group ? scalar(e) : null))}
              {group === 'Tracking' && remarks}
            </div>
          </fieldset>,
        );
      }
    }
  }
  return <>{blocks}</>;
}
