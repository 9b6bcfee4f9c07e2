import './shipment.css';
import type { Package } from '@/gen/logistics/v1/shipment_pb';
import { formatDimensionsCm, formatKg } from '@/utils/format';

type PackagesTableProps = { packages: readonly Package[]; totalWeightKg: number };

/** One row per package line: quantity, piece type, description, L×W×H in cm, weight in kg. */
export function PackagesTable({ packages, totalWeightKg }: PackagesTableProps) {
  if (packages.length === 0) {
    return <p className="muted">No package details were recorded for this shipment.</p>;
  }
  return (
    <div className="table-scroll" role="region" aria-label="Packages table" tabIndex={0}>
      <table className="data-table packages-table">
        <caption className="visually-hidden">Packages in this shipment</caption>
        <thead>
          <tr>
            <th scope="col">Quantity</th>
            <th scope="col">Piece Type</th>
            <th scope="col">Description</th>
            <th scope="col">Dimensions (L×W×H)</th>
            <th scope="col">Weight</th>
          </tr>
        </thead>
        <tbody>
          {packages.map((p, index) => (
            <tr key={index}>
              <td>{p.quantity}</td>
              <td>{p.pieceType}</td>
              <td>{p.description}</td>
              <td>{formatDimensionsCm(p.lengthCm, p.widthCm, p.heightCm)}</td>
              <td>{formatKg(p.weightKg)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={4}>
              Total weight
            </th>
            <td>{formatKg(totalWeightKg)}</td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
