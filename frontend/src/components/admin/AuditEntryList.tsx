import { useId, useState } from 'react';
import { ChevronDown } from 'lucide-react';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import type { AuditChange, AuditEntry } from '@/gen/logistics/v1/audit_service_pb';
import { actionLabel } from '@/utils/audit';
import { formatDateTime } from '@/utils/format';
import './audit.css';

/** A changed field as people know it: its label and its value shown (from the stored JSON). */
export type ChangeDescriber = (field: string, value: unknown) => { label: string; value: string };

/** A JSON value as people read it: strings without quotes, nothing as "—". */
function shown(json: string): string {
  if (!json) return '—';
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'string' ? value : JSON.stringify(value);
  } catch {
    return json;
  }
}

function parsed(json: string): unknown {
  try {
    return json ? (JSON.parse(json) as unknown) : undefined;
  } catch {
    return json;
  }
}

/** The "3 fields changed" button and, once opened, each field before and after. */
function ChangedFields({ changes, describe }: { changes: readonly AuditChange[]; describe?: ChangeDescriber }) {
  const [open, setOpen] = useState(false);
  const tableId = useId();
  const rows = changes.map((change) => {
    if (!describe) return { key: change.field, label: change.field, before: shown(change.before), after: shown(change.after) };
    const before = describe(change.field, parsed(change.before));
    return { key: change.field, label: before.label, before: before.value, after: describe(change.field, parsed(change.after)).value };
  });
  return (
    <div className="audit-changes">
      <button
        type="button"
        className="btn btn-outline btn-sm audit-changes-toggle"
        aria-expanded={open}
        aria-controls={tableId}
        onClick={() => setOpen((o) => !o)}
      >
        {changes.length === 1 ? '1 field changed' : `${changes.length} fields changed`}
        <ChevronDown aria-hidden="true" size={16} />
      </button>
      <span className="audit-changes-fields">{rows.map((row) => row.label).join(', ')}</span>
      <table className="audit-change-table" id={tableId} hidden={!open}>
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Before</th>
            <th scope="col">After</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key}>
              <th scope="row" className={describe ? undefined : 'mono'}>
                {row.label}
              </th>
              <td>
                <bdi>{row.before}</bdi>
              </td>
              <td>
                <bdi>{row.after}</bdi>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Audit entries, newest first: when, who, what, and each changed field before and after. */
export function AuditEntryList({
  entries,
  label,
  describeShipmentChange,
}: {
  entries: readonly AuditEntry[];
  label: string;
  /** How a shipment's changed fields are named and shown (the shipment form's labels). */
  describeShipmentChange?: ChangeDescriber;
}) {
  return (
    <ol className="audit-list" aria-label={label}>
      {entries.map((entry) => (
        <li key={entry.id} className="audit-entry" data-action={entry.action}>
          <div className="audit-entry-head">
            <strong>{actionLabel(entry.action)}</strong>
            {entry.targetName && <span className="mono">{entry.targetName}</span>}
            <time dateTime={entry.time ? timestampDate(entry.time).toISOString() : undefined}>
              {formatDateTime(entry.time ? timestampDate(entry.time) : undefined)}
            </time>
          </div>
          <p className="audit-entry-who">
            <span>By {entry.actorEmail || 'someone unknown'}</span>
            {entry.actorApiKey && <span> with the API key {entry.actorApiKey}</span>}
            {entry.clientIp && <span className="muted"> from {entry.clientIp}</span>}
            {entry.requestId && <span className="muted mono audit-request"> · request {entry.requestId}</span>}
          </p>
          {entry.summary && <p className="audit-entry-summary">{entry.summary}</p>}
          {entry.changes.length > 0 && (
            <ChangedFields
              changes={entry.changes}
              describe={entry.action.startsWith('shipment.') ? describeShipmentChange : undefined}
            />
          )}
          {entry.snapshotJson && (
            <details className="audit-changes">
              <summary>Deleted record</summary>
              <pre className="audit-snapshot">{JSON.stringify(JSON.parse(entry.snapshotJson), null, 2)}</pre>
            </details>
          )}
        </li>
      ))}
    </ol>
  );
}
