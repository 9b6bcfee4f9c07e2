import type { Package, Party } from '@/gen/logistics/v1/shipment_pb';
import { EmailAddress, Ltr } from '@/components/ui/Bidi';
import { EMPTY_VALUE, formatDecimal, formatKg } from '@/utils/format';

/** A party's name, address, phone and e-mail as printed lines; `heading` says who they are. */
type PartyBlockProps = {
  /** The printed title, e.g. "From". */
  heading: string;
  /** The block's accessible name: "Shipper" or "Receiver". */
  name: string;
  party: Party | undefined;
  className: string;
};

export function PartyBlock({ heading, name, party, className }: PartyBlockProps) {
  return (
    <section className={`party-block ${className}`} aria-label={name}>
      <h3 className="sheet-block-title">{heading}</h3>
      {/* Typed in any script: each line takes the direction of its own words. */}
      <p className="party-name" dir="auto">
        {party?.name || EMPTY_VALUE}
      </p>
      <p className="party-address" dir="auto">
        {party?.address || EMPTY_VALUE}
      </p>
      <p>
        <span className="sheet-term">Tel</span> {party?.phone ? <Ltr>{party.phone}</Ltr> : EMPTY_VALUE}
      </p>
      <p>
        <span className="sheet-term">E-mail</span> {party?.email ? <EmailAddress address={party.email} /> : EMPTY_VALUE}
      </p>
    </section>
  );
}

type PackageLinesProps = {
  packages: readonly Package[];
  /** The total weight in a last row; without it the sheet prints PackageTotals elsewhere. */
  totalWeightKg?: number;
  /** Lines shown; the rest are counted in a last row (the label's space is fixed). */
  maxLines?: number;
};

function piecesText(packages: readonly Package[]): string {
  const pieces = packages.reduce((sum, p) => sum + p.quantity, 0);
  return pieces === 1 ? '1 piece' : `${pieces} pieces`;
}

/** The number of pieces and the total weight, on a line of their own. */
export function PackageTotals({ packages, totalWeightKg }: { packages: readonly Package[]; totalWeightKg: number }) {
  return (
    <p className="package-totals" data-testid="package-totals">
      <strong>{piecesText(packages)}</strong> · Total weight <strong>{formatKg(totalWeightKg)}</strong>
    </p>
  );
}

/** The package lines (quantity, piece type, description, L × W × H, weight each), and the
 * number of pieces and the total weight when `totalWeightKg` is given. */
export function PackageLines({ packages, totalWeightKg, maxLines = Infinity }: PackageLinesProps) {
  const shown = packages.slice(0, maxLines);
  const hidden = packages.length - shown.length;
  return (
    <table className="sheet-table">
      <caption className="visually-hidden">Packages</caption>
      <thead>
        <tr>
          <th scope="col">Qty</th>
          <th scope="col">Piece type</th>
          <th scope="col">Description</th>
          <th scope="col">L × W × H (cm)</th>
          <th scope="col">Weight each</th>
        </tr>
      </thead>
      <tbody>
        {shown.map((p, index) => (
          <tr key={index}>
            <td>{p.quantity}</td>
            <td>{p.pieceType || EMPTY_VALUE}</td>
            <td>
              <span className="description-text">{p.description || EMPTY_VALUE}</span>
            </td>
            <td className="nowrap">
              {formatDecimal(p.lengthCm)} × {formatDecimal(p.widthCm)} × {formatDecimal(p.heightCm)}
            </td>
            <td className="nowrap">{formatKg(p.weightKg)}</td>
          </tr>
        ))}
        {packages.length === 0 && (
          <tr>
            <td colSpan={5}>No package details recorded.</td>
          </tr>
        )}
        {hidden > 0 && (
          <tr>
            <td colSpan={5} className="more-lines">
              + {hidden} more {hidden === 1 ? 'line' : 'lines'}: see the waybill
            </td>
          </tr>
        )}
      </tbody>
      {totalWeightKg !== undefined && (
        <tfoot>
          <tr data-testid="package-totals">
            <th scope="row" colSpan={3}>
              {piecesText(packages)}
            </th>
            <th scope="row">Total weight</th>
            <td className="nowrap">{formatKg(totalWeightKg)}</td>
          </tr>
        </tfoot>
      )}
    </table>
  );
}
