import { describe, expect, it } from 'vitest';
import { ShipmentImportState } from '@/gen/logistics/v1/shipment_service_pb';
import {
  checkSummary,
  count,
  finishedText,
  hasRejectedRowsReport,
  importButtonText,
  isFinished,
  progressText,
  progressValue,
  rejectedRowsHref,
  rowReferences,
  stateLabel,
  stateTone,
  uploadText,
} from './import-text';

describe('counts', () => {
  it('says row or rows, with thousands grouped', () => {
    expect(count(1, 'row', 'rows')).toBe('1 row');
    expect(count(0, 'row', 'rows')).toBe('0 rows');
    expect(count(2500, 'row', 'rows')).toBe('2,500 rows');
  });

  it('sums up a check', () => {
    expect(checkSummary({ totalRows: 25, validRows: 23, rejectedCount: 2 })).toBe(
      '25 rows: 23 ready to import, 2 with errors',
    );
    expect(checkSummary({ totalRows: 1, validRows: 1, rejectedCount: 0 })).toBe('1 row: 1 ready to import, 0 with errors');
  });

  it('names the import button by what it creates', () => {
    expect(importButtonText(23)).toBe('Import 23 shipments');
    expect(importButtonText(1)).toBe('Import 1 shipment');
    expect(importButtonText(0)).toBe('Import 0 shipments');
  });

  it('tells the progress against every row of the file', () => {
    expect(progressText({ processedRows: 12, totalRows: 25 })).toBe('12 of 25 rows');
    expect(progressText({ processedRows: 30, totalRows: 25 })).toBe('25 of 25 rows');
    expect(progressValue({ processedRows: -1, totalRows: 25 })).toBe(0);
  });

  it('sums up a finished import', () => {
    expect(finishedText({ createdCount: 23, skippedCount: 0, rejectedCount: 2, conflictCount: 0 })).toBe(
      'Import finished: 23 created, 0 skipped (already imported), 2 rejected.',
    );
    expect(finishedText({ createdCount: 0, skippedCount: 1200, rejectedCount: 2, conflictCount: 1 })).toBe(
      "Import finished: 0 created, 1,200 skipped (already imported), 2 rejected (1 a conflict with a shipment's data).",
    );
    expect(finishedText({ createdCount: 0, skippedCount: 0, rejectedCount: 3, conflictCount: 3 })).toBe(
      "Import finished: 0 created, 0 skipped (already imported), 3 rejected (3 conflicts with a shipment's data).",
    );
  });

  it('tells how much of the file was sent', () => {
    expect(uploadText(0, 200)).toBe('Sending the file: 0%');
    expect(uploadText(99, 200)).toBe('Sending the file: 49%');
    expect(uploadText(200, 200)).toBe('Sending the file: 100%');
    expect(uploadText(0, 0)).toBe('Sending the file: 0%');
  });
});

describe('states', () => {
  it('names each state for people', () => {
    expect(stateLabel(ShipmentImportState.UPLOADING)).toBe('Uploading');
    expect(stateLabel(ShipmentImportState.VALIDATED)).toBe('Checked');
    expect(stateLabel(ShipmentImportState.RUNNING)).toBe('Running');
    expect(stateLabel(ShipmentImportState.SUCCEEDED)).toBe('Finished');
    expect(stateLabel(ShipmentImportState.FAILED)).toBe('Failed');
    expect(stateLabel(ShipmentImportState.UNSPECIFIED)).toBe('Unknown');
    expect(stateTone(ShipmentImportState.FAILED)).toBe('red');
    expect(stateTone(ShipmentImportState.SUCCEEDED)).toBe('green');
  });

  it('knows when an import has ended', () => {
    expect(isFinished(ShipmentImportState.SUCCEEDED)).toBe(true);
    expect(isFinished(ShipmentImportState.FAILED)).toBe(true);
    expect(isFinished(ShipmentImportState.RUNNING)).toBe(false);
    expect(isFinished(ShipmentImportState.VALIDATED)).toBe(false);
  });

  it('offers the rejected rows once finished with some', () => {
    expect(hasRejectedRowsReport({ state: ShipmentImportState.SUCCEEDED, rejectedCount: 2 })).toBe(true);
    expect(hasRejectedRowsReport({ state: ShipmentImportState.FAILED, rejectedCount: 1 })).toBe(true);
    expect(hasRejectedRowsReport({ state: ShipmentImportState.SUCCEEDED, rejectedCount: 0 })).toBe(false);
    expect(hasRejectedRowsReport({ state: ShipmentImportState.RUNNING, rejectedCount: 2 })).toBe(false);
    expect(rejectedRowsHref('imp 1/2')).toBe('/exports/imports/imp%201%2F2/rejected.csv');
  });
});

describe('rows', () => {
  it('shows the references a row has', () => {
    expect(rowReferences({ trackingNumber: '', externalReference: ' ORD-1 ' })).toEqual(['ORD-1']);
    expect(rowReferences({ trackingNumber: 'PSE1', externalReference: 'ORD-1' })).toEqual(['PSE1', 'ORD-1']);
    expect(rowReferences({ trackingNumber: '', externalReference: '' })).toEqual([]);
  });
});
