import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useMutation } from '@tanstack/react-query';
import { Download } from 'lucide-react';
import type { ShipmentImport } from '@/gen/logistics/v1/shipment_service_pb';
import { serverMessage } from '@/lib/rpc-errors';
import { toast } from '@/lib/toast';
import { runShipmentImport, useImportsChanged } from '../api/imports';
import { useFileCheck } from '../hooks/use-file-check';
import { CheckFileForm } from './CheckFileForm';
import { CheckResult } from './CheckResult';
import { ImportStatus } from './ImportStatus';
import { RecentImports } from './RecentImports';
import './shipment-import.css';

const TEMPLATE_PATH = '/shipments-import-template.csv';
const IMPORT_PARAM = 'import';
const START_FAILED = 'Failed to start the import';

/**
 * Import shipments from a CSV file: check it (sent in parts, checked by the server, nothing
 * written), look at the counts and the rows with errors, import; the import's id is then in the
 * address (`?import=<id>`), so a reload or a link shows its progress and outcome.
 */
export function ImportPage() {
  const [params, setParams] = useSearchParams();
  const importId = params.get(IMPORT_PARAM)?.trim() ?? '';
  const fileCheck = useFileCheck();
  const { check, reset } = fileCheck;
  const checked = fileCheck.state.phase === 'checked' ? fileCheck.state.checked : null;
  const [started, setStarted] = useState<ShipmentImport | null>(null);
  const refreshList = useImportsChanged();
  const startImport = useMutation({
    mutationFn: (imp: ShipmentImport) => runShipmentImport(imp.id),
    onSuccess: (running) => {
      setStarted(running);
      reset();
      setParams((current) => {
        const next = new URLSearchParams(current);
        next.set(IMPORT_PARAM, running.id);
        return next;
      });
      refreshList();
    },
    onError: (error) => toast.error(serverMessage(error, START_FAILED)),
  });
  const starting = startImport.isPending;
  const start = (imp: ShipmentImport) => {
    if (!starting) startImport.mutate(imp);
  };

  const close = () => {
    reset();
    setStarted(null);
    setParams((current) => {
      const next = new URLSearchParams(current);
      next.delete(IMPORT_PARAM);
      return next;
    });
  };

  return (
    <div className="admin-import">
      <div className="admin-page-head">
        <h1>Import shipments</h1>
      </div>
      <div className="import-intro">
        <p>
          Create many shipments at once from a CSV file: one row per shipment, with the columns of the template
          (<code>packages</code> is a JSON list of the packages). The file is checked first and nothing is created until
          you choose Import. A row whose external reference or tracking number already exists is skipped, so the same
          file can be imported again safely.
        </p>
        <a className="btn btn-outline" href={TEMPLATE_PATH} download>
          <Download aria-hidden="true" size={18} />
          Download the template
        </a>
      </div>

      {importId ? (
        <ImportStatus
          // Started from here: mounted afresh to follow it (a checked import opened by its link
          // keeps its id when it starts).
          key={started?.id === importId ? `${importId}:started` : importId}
          id={importId}
          initial={started?.id === importId ? started : undefined}
          starting={starting}
          onStart={start}
          onFinished={refreshList}
          onClose={close}
        />
      ) : checked ? (
        <CheckResult
          imp={checked}
          starting={starting}
          onStart={() => start(checked)}
          onReset={reset}
          focusOnMount
        />
      ) : (
        <CheckFileForm state={fileCheck.state} onCheck={check} onFail={fileCheck.fail} onClear={reset} />
      )}

      <RecentImports currentId={importId} />
    </div>
  );
}
