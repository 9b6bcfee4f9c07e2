import { useState, type FormEvent } from 'react';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { LoaderCircle, Lock } from 'lucide-react';
import type { ShipmentNote } from '@/gen/logistics/v1/shipment_note_service_pb';
import { Field } from '@/components/ui/Field';
import { fieldInputProps } from '@/components/ui/field-input-props';
import { SubmitButton } from '@/components/ui/SubmitButton';
import { Spinner } from '@/components/ui/Spinner';
import { fieldViolations, serverMessage } from '@/lib/rpc-errors';
import { toast } from '@/lib/toast';
import { formatDateTime } from '@/utils/format';
import { useCreateShipmentNote, useShipmentNotes } from '../api/notes';
import { noteCounter, tooManyText } from '../utils/notes';
import './shipment-notes.css';

const TEXT_ID = 'shipment-note-text';

/** Staff's internal notes on a shipment, newest first, and (for whoever may update tracking,
 * `canAdd`) a form to add one. Plain text with its line breaks; never shown to customers. */
export function ShipmentNotes({
  shipmentId,
  canAdd,
  onDraftChange,
}: {
  shipmentId: string;
  canAdd: boolean;
  /** Whether a note is being written (not yet added). */
  onDraftChange?: (writing: boolean) => void;
}) {
  const { notes, error, hasMore, loadMore, loadingMore } = useShipmentNotes(shipmentId);
  return (
    <section aria-labelledby="view-notes" className="details-section shipment-notes">
      <h3 id="view-notes">Internal notes</h3>
      <p className="notes-intro">
        <Lock aria-hidden="true" size={16} />
        Only staff see these notes.
      </p>
      {canAdd && <AddNoteForm shipmentId={shipmentId} onDraftChange={onDraftChange} />}
      {error && !notes ? (
        <p className="field-error" role="alert">
          {serverMessage(error, 'Failed to load the notes')}
        </p>
      ) : notes === undefined ? (
        <Spinner size="sm" label="Loading notes…" />
      ) : notes.length === 0 ? (
        <p className="muted">No notes yet.</p>
      ) : (
        <ol className="notes-list" aria-label="Notes, newest first">
          {notes.map((note) => (
            <NoteItem key={note.id} note={note} />
          ))}
        </ol>
      )}
      {hasMore && (
        <button type="button" className="btn btn-outline btn-sm notes-more" onClick={loadMore} disabled={loadingMore}>
          {loadingMore && <LoaderCircle className="icon-spin" aria-hidden="true" size={16} />}
          Show more
        </button>
      )}
    </section>
  );
}

function NoteItem({ note }: { note: ShipmentNote }) {
  const written = note.createTime ? timestampDate(note.createTime) : undefined;
  return (
    <li className="note" data-testid="shipment-note">
      <p className="note-meta">
        <span className="note-author">{note.authorEmail || 'Unknown'}</span>
        <time dateTime={written?.toISOString()}>{formatDateTime(written, 'en')}</time>
      </p>
      <p className="note-text">{note.text}</p>
    </li>
  );
}

function AddNoteForm({ shipmentId, onDraftChange }: { shipmentId: string; onDraftChange?: (writing: boolean) => void }) {
  const createNote = useCreateShipmentNote();
  const [text, setTextState] = useState('');
  const setText = (value: string) => {
    setTextState(value);
    onDraftChange?.(value.trim() !== '');
  };
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const counter = noteCounter(text);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    if (text.trim() === '') {
      setError('Write the note first');
      document.getElementById(TEXT_ID)?.focus();
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      // As typed: the line breaks are the note's own.
      await createNote({ shipmentId, text });
      setText('');
      toast.success('Note added');
    } catch (err) {
      const violations = fieldViolations(err);
      setError(
        violations.length > 0 ? violations.map((v) => v.description).join(' ') : serverMessage(err, 'Failed to add the note'),
      );
      document.getElementById(TEXT_ID)?.focus();
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="note-form" onSubmit={(event) => void submit(event)} noValidate>
      <Field id={TEXT_ID} label="Add an internal note" error={error}>
        <textarea
          className="textarea"
          rows={3}
          value={text}
          onChange={(event) => setText(event.target.value)}
          {...fieldInputProps(TEXT_ID, error)}
          aria-describedby={`${TEXT_ID}-count${error ? ` ${TEXT_ID}-error` : ''}`}
        />
      </Field>
      <div className="note-form-foot">
        <p id={`${TEXT_ID}-count`} className={`note-count${counter.over > 0 ? ' is-over' : ''}`}>
          {counter.text}
          {counter.over > 0 && <> · {tooManyText(counter.over)}</>}
        </p>
        <SubmitButton busy={busy} busyLabel="Adding…">
          Add note
        </SubmitButton>
      </div>
    </form>
  );
}
