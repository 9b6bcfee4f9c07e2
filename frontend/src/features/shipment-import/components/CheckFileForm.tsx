import { useEffect, useRef, type FormEvent } from 'react';
import { FileCheck2 } from 'lucide-react';
import '@/components/ui/forms.css';
import { fieldInputProps } from '@/components/ui/field-input-props';
import { Spinner } from '@/components/ui/Spinner';
import { SubmitButton } from '@/components/ui/SubmitButton';
import type { FileCheck } from '../hooks/use-file-check';
import { uploadText } from '../utils/import-text';

const INPUT_ID = 'import-file';
const NO_FILE_MESSAGE = 'Choose a CSV file.';
const HINT = 'UTF-8 text with the template’s header line, up to 100 MB.';

type CheckFileFormProps = {
  state: FileCheck;
  onCheck: (file: File) => void;
  onFail: (message: string) => void;
  onClear: () => void;
};

/** Choose a file and Check file: the upload's progress, then the server's check; a file the
 * server refused shows why under the input. */
export function CheckFileForm({ state, onCheck, onFail, onClear }: CheckFileFormProps) {
  const input = useRef<HTMLInputElement>(null);
  const busy = state.phase === 'uploading' || state.phase === 'checking';
  const error = state.phase === 'failed' ? state.message : undefined;

  // A refused file: the input is where to fix it.
  useEffect(() => {
    if (error) input.current?.focus();
  }, [error]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const file = input.current?.files?.[0];
    if (!file) onFail(NO_FILE_MESSAGE);
    else onCheck(file);
  };

  return (
    <form className="card import-form" onSubmit={submit} aria-labelledby="import-form-heading" noValidate>
      <h2 id="import-form-heading" className="card-title">
        <FileCheck2 aria-hidden="true" size={22} />
        Check a file
      </h2>
      <div className={`field${error ? ' has-error' : ''}`}>
        <label htmlFor={INPUT_ID} className="field-label">
          CSV file
        </label>
        <input
          ref={input}
          type="file"
          accept=".csv,text/csv"
          className="input import-file-input"
          disabled={busy}
          onChange={() => {
            if (state.phase === 'failed') onClear();
          }}
          {...fieldInputProps(INPUT_ID, error, HINT)}
        />
        {error ? (
          <p id={`${INPUT_ID}-error`} className="field-error" role="alert">
            {error}
          </p>
        ) : (
          <p id={`${INPUT_ID}-hint`} className="field-hint">
            {HINT}
          </p>
        )}
      </div>
      <div className="import-form-actions">
        <SubmitButton busy={busy} busyLabel="Checking...">
          Check file
        </SubmitButton>
        <p className="muted">Nothing is created until you choose Import after the check.</p>
      </div>
      {state.phase === 'uploading' && (
        <div className="import-meter">
          <progress aria-label="Uploading" value={state.sent} max={state.size} />
          <span className="muted">{uploadText(state.sent, state.size)}</span>
        </div>
      )}
      {state.phase === 'checking' && (
        <div className="import-meter">
          <Spinner size="sm" label="Checking the rows…" />
          <span className="muted" aria-hidden="true">
            Checking the rows…
          </span>
        </div>
      )}
    </form>
  );
}
