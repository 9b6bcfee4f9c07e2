import { Link } from 'react-router-dom';
import { RefreshCw } from 'lucide-react';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import '@/components/ui/data-table.css';
import { ErrorAlert } from '@/components/ui/ErrorAlert';
import { ShipmentImportState, type ShipmentImport } from '@/gen/logistics/v1/shipment_service_pb';
import { Spinner } from '@/components/ui/Spinner';
import { EMPTY_VALUE, formatDateTime } from '@/utils/format';
import { useRecentImports } from '../hooks/use-recent-imports';
import { progressText, progressValue, stateLabel, stateTone } from '../utils/import-text';

type RecentImportsProps = {
  /** The import shown above, if any. */
  currentId: string;
};

const n = (value: number) => value.toLocaleString('en-US');

function started(imp: ShipmentImport): string {
  return formatDateTime(imp.createTime ? timestampDate(imp.createTime) : undefined);
}

/** The newest imports (who, when, how far, what came of them), each a link that opens it. */
export function RecentImports({ currentId }: RecentImportsProps) {
  const { imports, loading, error, reload } = useRecentImports();
  return (
    <section className="import-recent">
      <div className="import-section-head">
        <h2 id="recent-imports-heading">Recent imports</h2>
        <button type="button" className="btn btn-outline btn-sm" onClick={reload} disabled={loading}>
          <RefreshCw className={loading ? 'icon-spin' : undefined} aria-hidden="true" size={16} />
          Refresh
        </button>
      </div>
      {error && (
        <ErrorAlert message={error} />
      )}
      {loading && imports.length === 0 ? (
        <Spinner label="Loading the recent imports…" />
      ) : imports.length === 0 ? (
        !error && <p className="empty-state">No imports yet.</p>
      ) : (
        <div className="table-cards">
          <div className="table-scroll" role="region" aria-label="Recent imports" tabIndex={0}>
            <table className="data-table import-list-table">
              <thead>
                <tr>
                  <th scope="col">File</th>
                  <th scope="col">Started by</th>
                  <th scope="col">Started</th>
                  <th scope="col">State</th>
                  <th scope="col">Created / Skipped / Rejected</th>
                  <th scope="col">
                    <span className="visually-hidden">Open</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {imports.map((imp) => {
                  const running = imp.state === ShipmentImportState.RUNNING;
                  const counted = running || imp.state === ShipmentImportState.SUCCEEDED || imp.state === ShipmentImportState.FAILED;
                  return (
                    <tr key={imp.id} data-import-id={imp.id} className={imp.id === currentId ? 'is-current' : undefined}>
                      <th scope="row" className="import-file-cell">
                        {imp.fileName}
                      </th>
                      <td data-label="Started by" className="import-wrap-cell">
                        {imp.createdBy || EMPTY_VALUE}
                      </td>
                      <td data-label="Started">{started(imp)}</td>
                      <td className="card-aside import-state-cell">
                        <span className={`status-pill tone-${stateTone(imp.state)}`}>{stateLabel(imp.state)}</span>
                        {running && (
                          <progress
                            className="import-mini-progress"
                            aria-label={`Progress of ${imp.fileName}: ${progressText(imp)}`}
                            value={progressValue(imp)}
                            max={Math.max(imp.totalRows, 1)}
                          />
                        )}
                      </td>
                      <td data-label="Rows">
                        {counted ? (
                          // The words are read out, and shown on a phone where no column header is.
                          <span>
                            {n(imp.createdCount)}
                            <span className="card-words"> created</span> / {n(imp.skippedCount)}
                            <span className="card-words"> skipped</span> / {n(imp.rejectedCount)}
                            <span className="card-words"> rejected</span>
                          </span>
                        ) : (
                          EMPTY_VALUE
                        )}
                      </td>
                      <td className="card-actions">
                        <Link
                          className="btn btn-outline btn-sm"
                          to={{ search: `?import=${encodeURIComponent(imp.id)}` }}
                          aria-label={`Open import ${imp.fileName}, started ${started(imp)}`}
                          aria-current={imp.id === currentId ? 'true' : undefined}
                        >
                          Open
                        </Link>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </div>
      )}
    </section>
  );
}
