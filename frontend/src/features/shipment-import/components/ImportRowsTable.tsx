import '@/components/ui/data-table.css';
import type { ShipmentImportRow } from '@/gen/logistics/v1/shipment_service_pb';
import { EMPTY_VALUE } from '@/utils/format';
import { rowReferences } from '../utils/import-text';

/** Rows of an import file with their errors (the preview, the rejected rows); a card per
 * row on a phone (data-table.css). */
export function ImportRowsTable({ rows, label }: { rows: readonly ShipmentImportRow[]; label: string }) {
  return (
    <div className="table-cards">
      <div className="table-scroll" role="region" aria-label={label} tabIndex={0}>
        <table className="data-table import-rows-table">
          <thead>
            <tr>
              <th scope="col">Row</th>
              <th scope="col">Tracking number / reference</th>
              <th scope="col">Shipper</th>
              <th scope="col">Receiver</th>
              <th scope="col">Origin → Destination</th>
              <th scope="col">Errors</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => {
              const references = rowReferences(row);
              return (
                <tr key={row.row} data-row={row.row} className={row.errors.length > 0 ? 'has-errors' : undefined}>
                  <th scope="row">
                    <span className="card-words">Row </span>
                    {row.row}
                  </th>
                  <td data-label="Reference" className="import-reference-cell">
                    {references.length === 0 ? (
                      EMPTY_VALUE
                    ) : (
                      <span className="import-reference-list">
                        {references.map((reference, index) => (
                          <span key={index} className="mono">
                            {reference}
                          </span>
                        ))}
                      </span>
                    )}
                  </td>
                  <td data-label="Shipper" className="import-name-cell">{row.shipperName || EMPTY_VALUE}</td>
                  <td data-label="Receiver" className="import-name-cell">{row.receiverName || EMPTY_VALUE}</td>
                  <td data-label="Route" className="import-route-cell">
                    {/* One element: the cell is a label and value grid on a phone. */}
                    <span>
                      {row.origin || EMPTY_VALUE} <span aria-hidden="true">→</span>
                      <span className="visually-hidden">to</span> {row.destination || EMPTY_VALUE}
                    </span>
                  </td>
                  {row.errors.length === 0 ? (
                    // On a phone "OK" sits beside the row's title (data-table.css card-aside).
                    <td className="card-aside">
                      <span className="status-pill tone-green">OK</span>
                    </td>
                  ) : (
                    <td data-label="Errors" className="import-errors-cell">
                      <ul className="import-errors">
                        {row.errors.map((error, index) => (
                          <li key={index}>
                            {error.column && <span className="import-error-column">{error.column}</span>}
                            {error.column && ': '}
                            {error.message}
                          </li>
                        ))}
                      </ul>
                    </td>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
