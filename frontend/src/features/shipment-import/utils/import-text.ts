// What the import screen says about an import: counts, progress, states. Pure, no React.
import { ShipmentImportState, type ShipmentImport, type ShipmentImportRow } from '@/gen/logistics/v1/shipment_service_pb';

const numbers = new Intl.NumberFormat('en-US');

/** 1 → "1 row", 2500 → "2,500 rows". */
export function count(n: number, one: string, many: string): string {
  return `${numbers.format(n)} ${n === 1 ? one : many}`;
}

type Counts = Pick<ShipmentImport, 'totalRows' | 'validRows' | 'rejectedCount'>;

/** After the check: "25 rows: 23 ready to import, 2 with errors". */
export function checkSummary({ totalRows, validRows, rejectedCount }: Counts): string {
  return `${count(totalRows, 'row', 'rows')}: ${numbers.format(validRows)} ready to import, ${numbers.format(rejectedCount)} with errors`;
}

/** "Import 23 shipments". */
export function importButtonText(validRows: number): string {
  return `Import ${count(validRows, 'shipment', 'shipments')}`;
}

/** The rows handled so far, never more than the file's rows. */
export function progressValue({ processedRows, totalRows }: Pick<ShipmentImport, 'processedRows' | 'totalRows'>): number {
  return Math.max(0, Math.min(processedRows, totalRows));
}

/** "12 of 25 rows". */
export function progressText(imp: Pick<ShipmentImport, 'processedRows' | 'totalRows'>): string {
  return `${numbers.format(progressValue(imp))} of ${count(imp.totalRows, 'row', 'rows')}`;
}

type Outcome = Pick<ShipmentImport, 'createdCount' | 'skippedCount' | 'rejectedCount' | 'conflictCount'>;

/** "Import finished: 23 created, 0 skipped (already imported), 2 rejected." */
export function finishedText(imp: Outcome): string {
  return `Import finished: ${outcomeText(imp)}.`;
}

/** "23 created, 0 skipped (already imported), 2 rejected (1 a conflict with a shipment's data)" */
export function outcomeText({ createdCount, skippedCount, rejectedCount, conflictCount }: Outcome): string {
  const n = numbers.format;
  const conflicts =
    conflictCount > 0 ? ` (${n(conflictCount)} ${conflictCount === 1 ? 'a conflict' : 'conflicts'} with a shipment's data)` : '';
  return `${n(createdCount)} created, ${n(skippedCount)} skipped (already imported), ${n(rejectedCount)} rejected${conflicts}`;
}

/** "Sending the file: 45%" while it uploads. */
export function uploadText(sent: number, size: number): string {
  const percent = size > 0 ? Math.floor((Math.min(sent, size) / size) * 100) : 0;
  return `Sending the file: ${percent}%`;
}

const STATES: Record<number, { label: string; tone: 'grey' | 'blue' | 'yellow' | 'green' | 'red' }> = {
  [ShipmentImportState.UPLOADING]: { label: 'Uploading', tone: 'grey' },
  [ShipmentImportState.VALIDATED]: { label: 'Checked', tone: 'blue' },
  [ShipmentImportState.RUNNING]: { label: 'Running', tone: 'yellow' },
  [ShipmentImportState.SUCCEEDED]: { label: 'Finished', tone: 'green' },
  [ShipmentImportState.FAILED]: { label: 'Failed', tone: 'red' },
};

/** How the list of imports names a state: Uploading, Checked, Running, Finished, Failed. */
export function stateLabel(state: ShipmentImportState): string {
  return STATES[state]?.label ?? 'Unknown';
}

/** The colour of a state's pill (status-pill tone-*). */
export function stateTone(state: ShipmentImportState): string {
  return STATES[state]?.tone ?? 'grey';
}

/** The import has ended, well or not. */
export function isFinished(state: ShipmentImportState): boolean {
  return state === ShipmentImportState.SUCCEEDED || state === ShipmentImportState.FAILED;
}

/** The gateway's download of a finished import's rejected rows (the session cookie authenticates it). */
export function rejectedRowsHref(importId: string): string {
  return `/exports/imports/${encodeURIComponent(importId)}/rejected.csv`;
}

/** Whether that download exists: the import has finished and rejected rows. */
export function hasRejectedRowsReport(imp: Pick<ShipmentImport, 'state' | 'rejectedCount'>): boolean {
  return isFinished(imp.state) && imp.rejectedCount > 0;
}

/** A preview row's reference: its tracking number, its external reference, both or neither. */
export function rowReferences(row: Pick<ShipmentImportRow, 'trackingNumber' | 'externalReference'>): string[] {
  return [row.trackingNumber.trim(), row.externalReference.trim()].filter(Boolean);
}
