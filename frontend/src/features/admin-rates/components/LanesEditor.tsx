import { memo, useCallback, useState } from 'react';
import { useFieldArray, useFormContext, useFormState, useWatch, type UseFormGetValues } from 'react-hook-form';
import { ChevronRight, Copy, Plus, Trash2 } from 'lucide-react';
import type { LaneErrors } from '../hooks/use-rate-card-form';
import { MAX_LANES, blankLane, laneSummary, type RateCardFormValues } from '../utils/rate-card-form';
import { LaneEditor } from './LaneEditor';

/**
 * The lanes, up to 2,000: each a one-line summary ("EXPRESS_AIR · WA → EU · 4 breaks · 3–5 days")
 * that opens to edit it, so only the open ones have inputs. A lane with an error opens itself.
 */
export function LanesEditor({ laneErrors, onStartFromPublic }: { laneErrors: LaneErrors; onStartFromPublic?: () => void }) {
  const { control, getValues } = useFormContext<RateCardFormValues>();
  // Only the list's own error: a keystroke in a lane must not render the 2,000 lines again.
  const { errors } = useFormState({ control, name: 'lanes', exact: true });
  const lanes = useFieldArray({ control, name: 'lanes' });
  const { fields, append, remove } = lanes;
  /** The open lanes, by their row id (kept when a lane above is removed). */
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const listError = errors.lanes?.message ?? errors.lanes?.root?.message;

  // Lanes with an error in them open (the hook asks, by index), and so does a lane just added, once
  // its row exists: adjusted while rendering, as React advises for state that follows a prop.
  const [asked, setAsked] = useState(laneErrors);
  const [openIndex, setOpenIndex] = useState<number | null>(null);
  if (asked !== laneErrors || (openIndex !== null && fields[openIndex])) {
    const next = new Set(open);
    if (asked !== laneErrors) for (const index of laneErrors.lanes) if (fields[index]) next.add(fields[index].id);
    if (openIndex !== null && fields[openIndex]) next.add(fields[openIndex].id);
    setAsked(laneErrors);
    setOpenIndex(null);
    setOpen(next);
  }

  const toggle = useCallback((id: string) => {
    setOpen((previous) => {
      const next = new Set(previous);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  }, []);
  const removeLane = useCallback((index: number) => remove(index), [remove]);

  const addLane = () => {
    const { services, zones } = getValues();
    append(blankLane({ service: services[0]?.code, zone: zones[0]?.code }), { shouldFocus: false });
    setOpenIndex(fields.length);
  };

  return (
    <fieldset className="form-section rate-card-section">
      <legend>Lanes</legend>
      <p className="muted rate-lanes-count">
        {fields.length === 1 ? '1 lane' : `${fields.length.toLocaleString('en-US')} lanes`}. Open a lane to edit it.
      </p>
      {listError && <p className="field-error">{listError}</p>}
      {fields.length === 0 && onStartFromPublic && (
        <p className="rate-start-from-public">
          <button type="button" className="btn btn-outline btn-sm" onClick={onStartFromPublic}>
            <Copy aria-hidden="true" size={16} />
            Start from the public card
          </button>
          <span className="muted">Copies its zones, services and lanes here, to change as this customer needs.</span>
        </p>
      )}
      <ol className="rate-lanes">
        {fields.map((row, index) => (
          <LaneItem
            key={row.id}
            rowId={row.id}
            index={index}
            open={open.has(row.id)}
            hasError={laneErrors.lanes.has(index)}
            onToggle={toggle}
            onRemove={removeLane}
            getValues={getValues}
          />
        ))}
      </ol>
      <button type="button" className="btn btn-outline btn-sm" disabled={fields.length >= MAX_LANES} onClick={addLane}>
        <Plus aria-hidden="true" size={16} />
        Add lane
      </button>
    </fieldset>
  );
}

type LaneItemProps = {
  rowId: string;
  index: number;
  open: boolean;
  hasError: boolean;
  onToggle: (rowId: string) => void;
  onRemove: (index: number) => void;
  getValues: UseFormGetValues<RateCardFormValues>;
};

/** One lane: its summary (a button that opens it) and, open, its inputs. Rendered again only when
 * it opens, closes, moves or gets an error, so typing in one lane leaves the other 1,999 alone. */
const LaneItem = memo(function LaneItem({ rowId, index, open, hasError, onToggle, onRemove, getValues }: LaneItemProps) {
  const bodyId = `lane-${index}-body`;
  return (
    <li className={`rate-lane${open ? ' is-open' : ''}${hasError ? ' has-error' : ''}`} data-lane={index}>
      <div className="rate-lane-head">
        <button type="button" className="rate-lane-toggle" aria-expanded={open} aria-controls={open ? bodyId : undefined} onClick={() => onToggle(rowId)}>
          <ChevronRight className="rate-lane-chevron flip-rtl" aria-hidden="true" size={18} />
          <span className="rate-lane-summary">{open ? <LiveSummary index={index} /> : laneSummary(getValues(`lanes.${index}`))}</span>
          {hasError && <span className="status-pill tone-red">Needs a change</span>}
        </button>
        <button type="button" className="btn btn-outline btn-sm" aria-label={`Remove lane ${index + 1}`} onClick={() => onRemove(index)}>
          <Trash2 aria-hidden="true" size={16} />
        </button>
      </div>
      {open && (
        <div id={bodyId} className="rate-lane-body">
          <LaneEditor index={index} />
        </div>
      )}
    </li>
  );
});

/** An open lane's summary, following its inputs. */
function LiveSummary({ index }: { index: number }) {
  const lane = useWatch<RateCardFormValues, `lanes.${number}`>({ name: `lanes.${index}` });
  return <>{lane ? laneSummary(lane) : ''}</>;
}
