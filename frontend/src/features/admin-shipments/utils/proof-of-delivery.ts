// The proof of delivery form's rules, in the server's words (RecordProofOfDelivery): a
// recipient's name of at most 100 characters, a signature PNG of at most 512 KB and a photo,
// JPEG or PNG, of at most 8 MB. Pure: no React, no DOM.
import type { FieldViolation } from '@/lib/rpc-errors';

export const MAX_RECIPIENT_NAME = 100;
/** 8 MB: 8,000,000 bytes. */
export const MAX_PHOTO_BYTES = 8_000_000;
export const PHOTO_ACCEPT = 'image/jpeg,image/png';

/** The inputs of the form, keyed as the component names them. */
export type ProofField = 'recipientName' | 'signature' | 'photo';
export type ProofErrors = Partial<Record<ProofField, string>>;

const LABELS: Record<ProofField, string> = {
  recipientName: 'Recipient name',
  signature: 'Signature',
  photo: 'Photo',
};

/** The server's field names (google.rpc.BadRequest) → the form's. */
const SERVER_FIELDS: Record<string, ProofField> = {
  recipient_name: 'recipientName',
  recipientName: 'recipientName',
  signature_png: 'signature',
  signaturePng: 'signature',
  photo: 'photo',
};

/** "Photo: must be at most 8 MB": the input's label, then the server's description (without
 * the field name when the server already put it in front). */
export function fieldMessage(field: ProofField, description: string): string {
  const text = description.trim().replace(/^[a-z_]+:\s*/i, (prefix) =>
    SERVER_FIELDS[prefix.replace(/:\s*$/, '')] ? '' : prefix,
  );
  return `${LABELS[field]}: ${text}`;
}

/** The server's field violations placed at their inputs; the rest as sentences for above the form. */
export function proofViolations(violations: readonly FieldViolation[]): { fields: ProofErrors; general: string[] } {
  const fields: ProofErrors = {};
  const general: string[] = [];
  for (const { field, description } of violations) {
    const name = SERVER_FIELDS[field];
    if (name && !fields[name]) fields[name] = fieldMessage(name, description);
    else if (!name) general.push(field ? `${field}: ${description}` : description);
  }
  return { fields, general };
}

/** What the first bytes of a file say it is: a PNG, a JPEG, or neither. */
export function sniffImageType(head: Uint8Array): 'image/png' | 'image/jpeg' | null {
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (head.length >= png.length && png.every((byte, i) => head[i] === byte)) return 'image/png';
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  return null;
}

/** How many bytes of a file `photoError` needs to read. */
export const PHOTO_HEAD_BYTES = 8;

/** The photo's error, or null: a JPEG or PNG (by its content, whatever its name says) of at
 * most 8 MB. */
export function photoError(size: number, head: Uint8Array): string | null {
  if (size === 0 || sniffImageType(head) === null) return fieldMessage('photo', 'must be a JPEG or PNG image');
  if (size > MAX_PHOTO_BYTES) return fieldMessage('photo', 'must be at most 8 MB');
  return null;
}

/**
 * The errors of the form before anything is sent. `required`: the form is only for the proof
 * (a name must be given); otherwise an empty name means "record nothing", unless a signature or
 * a photo was given.
 */
export function proofInputErrors(input: {
  recipientName: string;
  signed: boolean;
  hasPhoto: boolean;
  photoError: string | null;
  required: boolean;
}): ProofErrors {
  const errors: ProofErrors = {};
  const name = input.recipientName.trim();
  if (!name && (input.required || input.signed || input.hasPhoto)) {
    errors.recipientName = fieldMessage('recipientName', 'is required');
  } else if ([...name].length > MAX_RECIPIENT_NAME) {
    errors.recipientName = fieldMessage('recipientName', `must be at most ${MAX_RECIPIENT_NAME} characters`);
  }
  if (input.photoError) errors.photo = input.photoError;
  return errors;
}

/** Whether there is anything to record: a name was given. */
export function wantsProof(recipientName: string): boolean {
  return recipientName.trim() !== '';
}
