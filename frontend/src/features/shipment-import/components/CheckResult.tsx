import { useEffect, useRef } from 'react';
import { Upload } from 'lucide-react';
import type { ShipmentImport } from '@/gen/logistics/v1/shipment_service_pb';
import { checkSummary, count, importButtonText } from '../utils/import-text';
import { ImportHead } from './ImportHead';
import { ImportRowsTable } from './ImportRowsTable';

type CheckResultProps = {
  imp: ShipmentImport;
  starting: boolean;
  onStart: () => void;
  onReset: () => void;
  /** Move the focus to the result (it replaced the form the user was in). */
  focusOnMount?: boolean;
};

/** A checked file: the counts, Import and Choose another file, the first rows and the first
 * rejected rows with their errors. */
export function CheckResult({ imp, starting, onStart, onReset, focusOnMount = false }: CheckResultProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focusOnMount) heading.current?.focus();
  }, [focusOnMount]);
  const rejectedShown = imp.rejectedPreview.length;

  return (
    <section className="card import-panel" aria-labelledby="import-panel-heading">
      <ImportHead imp={imp} headingRef={heading} />
      <p className="import-counts" data-testid="import-counts">
        {checkSummary(imp)}
      </p>
      <div className="import-actions">
        <button type="button" className="btn btn-primary" onClick={onStart} disabled={imp.validRows === 0 || starting}>
          <Upload aria-hidden="true" size={18} />
          {starting ? 'Starting...' : importButtonText(imp.validRows)}
        </button>
        <button type="button" className="btn btn-outline" onClick={onReset} disabled={starting}>
          Choose another file
        </button>
      </div>
      {imp.validRows === 0 && (
        <p className="muted">No row can be imported: correct the rows with errors and check the file again.</p>
      )}

      <h3 className="import-subheading">Preview</h3>
      {imp.preview.length > 0 ? (
        <>
          <p className="muted">The first {count(imp.preview.length, 'row', 'rows')} of the file.</p>
          <ImportRowsTable rows={imp.preview} label="Preview" />
        </>
      ) : (
        <p className="muted">No preview for this file.</p>
      )}

      {rejectedShown > 0 && (
        <>
          <h3 className="import-subheading">Rows with errors</h3>
          <p className="muted">
            {imp.rejectedCount > rejectedShown
              ? `The first ${rejectedShown} of ${count(imp.rejectedCount, 'row', 'rows')} with errors. `
              : ''}
            These rows are not imported. The full list, with the file’s own columns, can be downloaded after the
            import, corrected and imported again.
          </p>
          <ImportRowsTable rows={imp.rejectedPreview} label="Rows with errors" />
        </>
      )}
    </section>
  );
}
