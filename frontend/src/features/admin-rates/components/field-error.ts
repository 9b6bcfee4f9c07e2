import { get, type FieldErrors } from 'react-hook-form';
import type { RateCardFormValues } from '../utils/rate-card-form';

/** The message of the error at a form path ("lanes.2.weightBreaks.0.price"), or of the row or
 * list itself ("lanes.2", "zones"). */
export function errorAt(errors: FieldErrors<RateCardFormValues>, path: string): string | undefined {
  const found = get(errors, path) as { message?: unknown; root?: { message?: unknown } } | undefined;
  const message = found?.message ?? found?.root?.message;
  return typeof message === 'string' && message ? message : undefined;
}
