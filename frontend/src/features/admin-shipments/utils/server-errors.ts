import type { FieldPath, UseFormReturn } from 'react-hook-form';
import { fieldViolations, serverMessage } from '@/lib/rpc-errors';
import { formFieldForViolation, type ShipmentFormValues } from './shipment-form';

/**
 * Shows a failed save in the form: each field violation next to its input (the first one is
 * focused); the messages that belong to no input, or the server's message when there are no
 * violations, are returned for the list above the form.
 */
export function applyServerErrors(
  form: UseFormReturn<ShipmentFormValues>,
  error: unknown,
  fallback: string,
): string[] {
  const violations = fieldViolations(error);
  if (violations.length === 0) return [serverMessage(error, fallback)];
  const general: string[] = [];
  let focused = false;
  for (const { field, description } of violations) {
    const name = formFieldForViolation(field);
    if (name === 'packages') {
      form.setError('packages', { type: 'server', message: description });
    } else if (name) {
      form.setError(name as FieldPath<ShipmentFormValues>, { type: 'server', message: description }, { shouldFocus: !focused });
      focused = true;
    } else {
      general.push(field ? `${field}: ${description}` : description);
    }
  }
  return general;
}

/** The same for a small form whose inputs the server names one to one (`FIELDS`). */
export function applyFieldErrors<T extends Record<string, string>>(
  form: UseFormReturn<T>,
  error: unknown,
  fields: Record<string, FieldPath<T>>,
  fallback: string,
): string[] {
  const violations = fieldViolations(error);
  if (violations.length === 0) return [serverMessage(error, fallback)];
  const general: string[] = [];
  for (const { field, description } of violations) {
    const name = fields[field];
    if (name) form.setError(name, { type: 'server', message: description });
    else general.push(field ? `${field}: ${description}` : description);
  }
  return general;
}
