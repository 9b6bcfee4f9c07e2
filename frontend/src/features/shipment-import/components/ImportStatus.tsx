import { useEffect, useRef } from 'react';
import { AlertCircle, CheckCircle2, Download } from 'lucide-react';
import { ErrorAlert } from '@/components/ui/ErrorAlert';
import { ShipmentImportState, type ShipmentImport } from '@/gen/logistics/v1/shipment_service_pb';
import { Spinner } from '@/components/ui/Spinner';
import { useShipmentImport } from '../hooks/use-shipment-import';
import {
  finishedText,
  hasRejectedRowsReport,
  isFinished,
  outcomeText,
  progressText,
  progressValue,
  rejectedRowsHref,
} from '../utils/import-text';
import { CheckResult } from './CheckResult';
import { ImportHead } from './ImportHead';
import { ImportRowsTable } from './ImportRowsTable';

type ImportStatusProps = {
  id: string;
  /** The import as the call that started it answered (shown at once). */
  initial?: ShipmentImport;
  starting: boolean;
  onStart: (imp: ShipmentImport) => void;
  onFinished: (imp: ShipmentImport) => void;
  /** Leave this import for the form. */
  onClose: () => void;
};

/** The import named in the address (`?import=<id>`): checked, running (its progress, asked
 * every second) or finished (its outcome and the rejected rows' report). */
export function ImportStatus({ id, initial, starting, onStart, onFinished, onClose }: ImportStatusProps) {
  const { imp, error, missing } = useShipmentImport(id, initial, onFinished);

  if (missing) {
    return (
      <section className="card import-panel" aria-label="Import">
        <ErrorAlert message="Import not found." />
        <div className="import-actions">
          <button type="button" className="btn btn-outline" onClick={onClose}>
            Choose another file
          </button>
        </div>
      </section>
    );
  }
  if (!imp) {
    return error ? (
      <ErrorAlert message={`${error}. Trying again…`} />
    ) : (
      <Spinner label="Loading the import…" />
    );
  }
  if (imp.state === ShipmentImportState.VALIDATED) {
    return <CheckResult imp={imp} starting={starting} onStart={() => onStart(imp)} onReset={onClose} />;
  }
  if (imp.state === ShipmentImportState.UPLOADING) {
    return (
      <section className="card import-panel" aria-labelledby="import-panel-heading">
        <ImportHead imp={imp} />
        <p>This file was not completely sent, so it was not checked. Choose it again to check it.</p>
        <div className="import-actions">
          <button type="button" className="btn btn-outline" onClick={onClose}>
            Choose another file
          </button>
        </div>
      </section>
    );
  }
  return <ImportRun imp={imp} refreshError={error} focusOnMount={initial !== undefined} onClose={onClose} />;
}

/** A running or finished import. */
function ImportRun({
  imp,
  refreshError,
  focusOnMount,
  onClose,
}: {
  imp: ShipmentImport;
  refreshError: string | null;
  focusOnMount: boolean;
  onClose: () => void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focusOnMount) heading.current?.focus();
  }, [focusOnMount]);
  const running = imp.state === ShipmentImportState.RUNNING;
  const finished = isFinished(imp.state);

  return (
    <section className="card import-panel" aria-labelledby="import-panel-heading">
      <ImportHead imp={imp} headingRef={heading} />

      <div className="import-meter import-progress">
        <progress aria-label="Import progress" value={progressValue(imp)} max={Math.max(imp.totalRows, 1)} />
        <span data-testid="import-progress-text">{progressText(imp)}</span>
      </div>
      <dl className="import-tally">
        <div>
          <dt>Created</dt>
          <dd>{imp.createdCount.toLocaleString('en-US')}</dd>
        </div>
        <div>
          <dt>Skipped</dt>
          <dd>{imp.skippedCount.toLocaleString('en-US')}</dd>
        </div>
        <div>
          <dt>Rejected</dt>
          <dd>{imp.rejectedCount.toLocaleString('en-US')}</dd>
        </div>
        {imp.conflictCount > 0 && (
          <div>
            <dt>Conflicts (in rejected)</dt>
            <dd>{imp.conflictCount.toLocaleString('en-US')}</dd>
          </div>
        )}
      </dl>

      {running && (
        <p className="muted">Creating the shipments. You may leave this page: the import goes on, and Recent imports shows it.</p>
      )}
      {imp.state === ShipmentImportState.SUCCEEDED && (
        <div className="alert alert-success" role="status">
          <CheckCircle2 aria-hidden="true" size={22} />
          <p>{finishedText(imp)}</p>
        </div>
      )}
      {imp.state === ShipmentImportState.FAILED && (
        <div className="alert alert-error" role="alert">
          <AlertCircle aria-hidden="true" size={22} />
          <div>
            <p>{imp.error || 'The import stopped before the end.'}</p>
            <p className="import-alert-detail">
              Before it stopped: {outcomeText(imp)}. The shipments created stay; importing the file again skips them.
            </p>
          </div>
        </div>
      )}
      {refreshError && (
        <p className="field-error" role="status">
          Could not refresh the progress: {refreshError}. Trying again…
        </p>
      )}

      <div className="import-actions">
        {hasRejectedRowsReport(imp) && (
          <a className="btn btn-outline" href={rejectedRowsHref(imp.id)} download>
            <Download aria-hidden="true" size={18} />
            Download rejected rows
          </a>
        )}
        <button type="button" className="btn btn-outline" onClick={onClose}>
          Import another file
        </button>
      </div>

      {finished && imp.rejectedPreview.length > 0 && (
        <>
          <h3 className="import-subheading">Rows with errors</h3>
          <p className="muted">
            {imp.rejectedCount > imp.rejectedPreview.length
              ? `The first ${imp.rejectedPreview.length} of ${imp.rejectedCount.toLocaleString('en-US')}; Download rejected rows has them all.`
              : 'Download rejected rows has them with the file’s own columns, to correct and import again.'}
          </p>
          <ImportRowsTable rows={imp.rejectedPreview} label="Rows with errors" />
        </>
      )}
    </section>
  );
}
