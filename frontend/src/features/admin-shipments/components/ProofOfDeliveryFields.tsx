import { useCallback, useEffect, useRef, useState } from 'react';
import { Eraser, X } from 'lucide-react';
import { BlobImage } from '@/components/ui/BlobImage';
import { Field } from '@/components/ui/Field';
import { fieldInputProps } from '@/components/ui/field-input-props';
import type { ProofForm } from '../hooks/use-proof-of-delivery-form';
import { MAX_RECIPIENT_NAME, PHOTO_ACCEPT } from '../utils/proof-of-delivery';
import { SignaturePad } from '@/components/ui/SignaturePad';
import './proof-of-delivery.css';

type ProofOfDeliveryFieldsProps = {
  proof: ProofForm;
  /** A sentence under the legend (e.g. that the proof is optional). */
  intro?: string;
  disabled?: boolean;
};

/** The proof of delivery's inputs (Update Status, and Record proof of delivery): the
 * recipient's name, a signature drawn on screen and a photo (the camera on a phone). */
export function ProofOfDeliveryFields({ proof, intro, disabled = false }: ProofOfDeliveryFieldsProps) {
  const { ids, errors } = proof;
  const photoInput = useRef<HTMLInputElement>(null);
  useEffect(() => proof.takeFocus());
  // A photo the browser cannot show (the server will say why) gets no broken preview.
  const [unshowable, setUnshowable] = useState<File | null>(null);
  const chosen = proof.photo?.file;
  const onPreviewFailed = useCallback(() => setUnshowable(chosen ?? null), [chosen]);
  const signatureLabel = `${ids.signature}-label`;
  const signatureHint = `${ids.signature}-hint`;
  const signatureError = `${ids.signature}-error`;
  const removePhoto = () => {
    if (photoInput.current) photoInput.current.value = '';
    proof.choosePhoto(null);
    photoInput.current?.focus();
  };

  return (
    <fieldset className="form-section proof-fields field-wide" disabled={disabled}>
      <legend>Proof of delivery</legend>
      {intro && <p className="field-hint proof-intro">{intro}</p>}
      <Field id={ids.recipientName} label="Recipient name" error={errors.recipientName}>
        <input
          className="input"
          type="text"
          autoComplete="off"
          maxLength={MAX_RECIPIENT_NAME}
          value={proof.recipientName}
          onChange={(event) => proof.setRecipientName(event.target.value)}
          {...fieldInputProps(ids.recipientName, errors.recipientName)}
        />
      </Field>

      <div
        id={ids.signature}
        tabIndex={-1}
        role="group"
        aria-labelledby={signatureLabel}
        aria-describedby={errors.signature ? signatureError : signatureHint}
        className={`field signature-field${errors.signature ? ' has-error' : ''}`}
      >
        <span id={signatureLabel} className="field-label">
          Signature
        </span>
        <SignaturePad strokes={proof.strokes} onChange={proof.setStrokes} disabled={disabled} />
        <div className="signature-foot">
          <p id={signatureHint} className="field-hint">
            Sign with a finger or the mouse
          </p>
          <button type="button" className="btn btn-outline btn-sm" onClick={() => proof.setStrokes([])}>
            <Eraser aria-hidden="true" size={16} />
            Clear signature
          </button>
        </div>
        {errors.signature && (
          <p id={signatureError} className="field-error">
            {errors.signature}
          </p>
        )}
      </div>

      <Field id={ids.photo} label="Photo" error={errors.photo} hint="A JPEG or PNG of up to 8 MB">
        <input
          ref={photoInput}
          className="input input-file"
          type="file"
          accept={PHOTO_ACCEPT}
          capture="environment"
          onChange={(event) => proof.choosePhoto(event.target.files?.[0] ?? null)}
          {...fieldInputProps(ids.photo, errors.photo, 'A JPEG or PNG of up to 8 MB')}
        />
      </Field>
      {proof.photo && !proof.photo.error && proof.photo.file !== unshowable && (
        <div className="photo-preview">
          <BlobImage blob={proof.photo.file} alt="The photo to be saved" onFailed={onPreviewFailed} />
          <button type="button" className="btn btn-outline btn-sm" onClick={removePhoto}>
            <X aria-hidden="true" size={16} />
            Remove photo
          </button>
        </div>
      )}
    </fieldset>
  );
}
