import { useCallback, useRef, useState } from 'react';
import { fieldViolations, serverMessage } from '@/lib/rpc-errors';
import type { ProofOfDeliveryInput } from '../api/shipments';
import {
  PHOTO_HEAD_BYTES,
  photoError,
  proofInputErrors,
  proofViolations,
  wantsProof,
  type ProofErrors,
  type ProofField,
} from '../utils/proof-of-delivery';
import { signaturePng, type Stroke } from '@/utils/signature';

const PROOF_SAVE_FAILED = 'The proof of delivery could not be saved.';

type Photo = { file: File; error: string | null };

/** What a failed check or save says: a message at each input, and the rest for above them. */
export type ProofForm = ReturnType<typeof useProofOfDeliveryForm>;

/**
 * The state of the proof of delivery inputs (ProofOfDeliveryFields): the recipient's name, the
 * signature's strokes and the photo, checked as the server will check them. `required`: the
 * form is only for the proof, so the name must be given; otherwise an empty name records nothing.
 */
export function useProofOfDeliveryForm({ idPrefix, required }: { idPrefix: string; required: boolean }) {
  const [recipientName, setName] = useState('');
  const [strokes, setStrokes] = useState<Stroke[]>([]);
  const [photo, setPhotoState] = useState<Photo | null>(null);
  const [errors, setErrors] = useState<ProofErrors>({});
  // The photo as last checked, and the check under way: read after an `await` in `prepare`.
  const photoRef = useRef<Photo | null>(null);
  const photoCheck = useRef<Promise<void>>(Promise.resolve());

  const ids = {
    recipientName: `${idPrefix}-recipient`,
    signature: `${idPrefix}-signature`,
    photo: `${idPrefix}-photo`,
  };

  const setRecipientName = useCallback((value: string) => {
    setName(value);
    setErrors((e) => (e.recipientName ? { ...e, recipientName: undefined } : e));
  }, []);

  const changeStrokes = useCallback((next: Stroke[]) => {
    setStrokes(next);
    setErrors((e) => (e.signature ? { ...e, signature: undefined } : e));
  }, []);

  const choosePhoto = useCallback((file: File | null) => {
    const check = async () => {
      let next: Photo | null = null;
      if (file) {
        const head = new Uint8Array(await file.slice(0, PHOTO_HEAD_BYTES).arrayBuffer());
        next = { file, error: photoError(file.size, head) };
      }
      photoRef.current = next;
      setPhotoState(next);
      setErrors((e) => ({ ...e, photo: next?.error ?? undefined }));
    };
    photoCheck.current = check();
  }, []);

  // The first wrong input, to be focused once the inputs are enabled again (they are disabled
  // while the form saves): ProofOfDeliveryFields calls `takeFocus` after each render.
  const pendingFocus = useRef<ProofField | null>(null);
  const focusFirst = (found: ProofErrors) => {
    pendingFocus.current = (['recipientName', 'signature', 'photo'] as const).find((name) => found[name]) ?? null;
  };
  const takeFocus = () => {
    const field = pendingFocus.current;
    const element = field && document.getElementById(ids[field]);
    if (!element || element.matches(':disabled')) return;
    pendingFocus.current = null;
    element.focus();
  };

  /** Checks the inputs: the request to send, null when there is nothing to record, or false
   * when an input is wrong (its message is shown and it has the focus). */
  const prepare = async (): Promise<ProofOfDeliveryInput | null | false> => {
    await photoCheck.current;
    const chosen = photoRef.current;
    const found = proofInputErrors({
      recipientName,
      signed: strokes.length > 0,
      hasPhoto: chosen !== null,
      photoError: chosen?.error ?? null,
      required,
    });
    setErrors(found);
    if (Object.keys(found).length > 0) {
      focusFirst(found);
      return false;
    }
    if (!wantsProof(recipientName)) return null;
    const signature = await signaturePng(strokes);
    return {
      recipientName: recipientName.trim(),
      signaturePng: signature ?? undefined,
      photo: chosen ? new Uint8Array(await chosen.file.arrayBuffer()) : undefined,
    };
  };

  /** Shows a failed RecordProofOfDelivery: each field violation at its input; returns the
   * sentences that belong to none (the server's message when there are no violations). */
  const showServerError = (error: unknown): string[] => {
    const violations = fieldViolations(error);
    if (violations.length === 0) return [serverMessage(error, PROOF_SAVE_FAILED)];
    const { fields, general } = proofViolations(violations);
    setErrors(fields);
    focusFirst(fields);
    return general;
  };

  return {
    ids,
    /** Something was typed, signed or chosen. */
    dirty: recipientName.trim() !== '' || strokes.length > 0 || photo !== null,
    recipientName,
    setRecipientName,
    strokes,
    setStrokes: changeStrokes,
    photo,
    choosePhoto,
    errors,
    prepare,
    showServerError,
    takeFocus,
  };
}
