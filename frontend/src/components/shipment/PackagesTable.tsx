import '../ui/data-table.css';
import './shipment.css';
import type { Package } from '@/gen/logistics/v1/shipment_pb';
import { formatDimensionsCm, formatKg } from '@/utils/format';

type PackagesTableProps = { packages: readonly Package[]; totalWeightKg: number };

const COLUMNS: ReadonlyArray<{ label: string; value: (p: Package) => string | number }> = [
  { label: 'Quantity', value: (p) => p.quantity },
  { label: 'Piece Type', value: (p) => p.pieceType },
  { label: 'Description', value: (p) => p.description },
  { label: 'Dimensions (L×W×H)', value: (p) => formatDimensionsCm(p.lengthCm, p.widthCm, p.heightCm) },
  { label: 'Weight', value: (p) => formatKg(p.weightKg) },
];

/** One row per package line: quantity, piece type, description, L×W×H in cm, weight in kg.
 * Where it has less than about 700 px (a phone, a narrow dialog) each package becomes a card of
 * label and value pairs (shipment.css), so no column is ever off-screen. */
export function PackagesTable({ packages, totalWeightKg }: PackagesTableProps) {
  if (packages.length === 0) {
    return <p className="muted">No package details were recorded for this shipment.</p>;
  }
  return (
    <div className="table-scroll packages" role="region" aria-label="Packages table" tabIndex={0}>
      <table className="data-table packages-table">
        <caption className="visually-hidden">Packages in this shipment</caption>
        <thead>
          <tr>
            {COLUMNS.map(({ label }) => (
              <th key={label} scope="col">
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {packages.map((p, index) => (
            <tr key={index}>
              {COLUMNS.map(({ label, value }) => (
                <td key={label} data-label={label}>
                  {value(p)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={COLUMNS.length - 1}>
              Total weight
            </th>
            <td>{formatKg(totalWeightKg)}</td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
