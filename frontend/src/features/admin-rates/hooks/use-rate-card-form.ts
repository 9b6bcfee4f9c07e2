import { useCallback, useState } from 'react';
import { useForm, type FieldPath } from 'react-hook-form';
import { Code, ConnectError } from '@connectrpc/connect';
import type { RateCard } from '@/gen/logistics/v1/rate_card_service_pb';
import { fieldViolations, serverMessage, type FieldViolation } from '@/lib/rpc-errors';
import { toast } from '@/lib/toast';
import { useSaveRateCard } from '../api/rate-cards';
import {
  formPathOfViolation,
  formToCard,
  laneOfPath,
  type FormProblem,
  type RateCardFormValues,
} from '../utils/rate-card-form';

/** The lanes that have an error in them, by index. */
export type LaneErrors = { lanes: ReadonlySet<number> };

/** The card being edited: its id and the version it was read at (0: a customer's first card). */
export type CardBase = { id: string; version: number };

/**
 * The edit screen's form: reads the inputs into a card (what cannot be read is shown at its input
 * before anything is sent), saves it, and puts the server's field violations at their inputs
 * (opening the lanes they are in); the rest, and a conflicting save, above the form.
 */
export function useRateCardForm(base: CardBase, initial: RateCardFormValues, onSaved: (card: RateCard) => void) {
  const form = useForm<RateCardFormValues>({ defaultValues: initial });
  const save = useSaveRateCard();
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const [conflict, setConflict] = useState<string | null>(null);
  /** The lanes with an error in them, by index, until the card is read again: the lanes editor
   * opens and marks them (a new object each time, so it knows when to open them). */
  const [laneErrors, setLaneErrors] = useState<LaneErrors>({ lanes: new Set() });

  /** Shows each problem at its input, opening its lane, and focuses the first. */
  const showProblems = useCallback(
    (problems: readonly FormProblem[]) => {
      const lanes = new Set<number>();
      for (const { path, message } of problems) {
        const lane = laneOfPath(path);
        if (lane !== null) lanes.add(lane);
        form.setError(path as FieldPath<RateCardFormValues>, { type: 'server', message });
      }
      setLaneErrors({ lanes });
      // Focus the first once its lane is open.
      const first = problems[0]?.path;
      if (first) window.setTimeout(() => form.setFocus(first as FieldPath<RateCardFormValues>), 0);
    },
    [form],
  );

  /** The server's violations of the card: at their inputs, or in the list above the form. */
  const showViolations = useCallback(
    (violations: readonly FieldViolation[]) => {
      const placed: FormProblem[] = [];
      const general: string[] = [];
      for (const { field, description } of violations) {
        const path = formPathOfViolation(field);
        if (path) placed.push({ path, message: description });
        else general.push(description);
      }
      showProblems(placed);
      return general;
    },
    [showProblems],
  );

  /** The card as on the screen, or the inputs that cannot be read (shown at once). */
  const readCard = useCallback(() => {
    form.clearErrors();
    setLaneErrors({ lanes: new Set() });
    const read = formToCard(form.getValues(), base.id, base.version);
    if (read.problems.length > 0) showProblems(read.problems);
    return read;
  }, [form, base, showProblems]);

  const submit = form.handleSubmit(async () => {
    setFormErrors([]);
    setConflict(null);
    const { card, problems } = readCard();
    if (problems.length > 0) {
      setFormErrors([`${problems.length === 1 ? 'One field needs' : `${problems.length} fields need`} a change before the card can be saved.`]);
      return;
    }
    try {
      const saved = await save({ rateCard: card });
      toast.success(`Rate card saved (version ${saved.version})`);
      onSaved(saved);
    } catch (error) {
      const message = serverMessage(error, 'Failed to save the rate card');
      if (ConnectError.from(error).code === Code.Aborted) {
        setConflict(message);
        toast.error(message);
        return;
      }
      toast.error(message);
      const violations = fieldViolations(error);
      const general = showViolations(violations);
      setFormErrors(violations.length === 0 ? [message] : general);
    }
  });

  return { form, submit, readCard, showViolations, formErrors, conflict, laneErrors };
}
