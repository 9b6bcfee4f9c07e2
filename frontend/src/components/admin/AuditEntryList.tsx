import { timestampDate } from '@bufbuild/protobuf/wkt';
import type { AuditEntry } from '@/gen/logistics/v1/audit_service_pb';
import { actionLabel } from '@/utils/audit';
import { formatDateTime } from '@/utils/format';
import './audit.css';

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

/** Audit entries, newest first: when, who, what, and each changed field before and after. */
export function AuditEntryList({ entries, label }: { entries: readonly AuditEntry[]; label: string }) {
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
            {entry.clientIp && <span className="muted"> from {entry.clientIp}</span>}
            {entry.requestId && <span className="muted mono audit-request"> · request {entry.requestId}</span>}
          </p>
          {entry.summary && <p className="audit-entry-summary">{entry.summary}</p>}
          {entry.changes.length > 0 && (
            <details className="audit-changes">
              <summary>
                {entry.changes.length === 1 ? '1 field changed' : `${entry.changes.length} fields changed`}
              </summary>
              <table className="audit-change-table">
                <thead>
                  <tr>
                    <th scope="col">Field</th>
                    <th scope="col">Before</th>
                    <th scope="col">After</th>
                  </tr>
                </thead>
                <tbody>
                  {entry.changes.map((change) => (
                    <tr key={change.field}>
                      <th scope="row" className="mono">
                        {change.field}
                      </th>
                      <td>{shown(change.before)}</td>
                      <td>{shown(change.after)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </details>
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
