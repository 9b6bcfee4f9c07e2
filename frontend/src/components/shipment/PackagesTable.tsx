import '../ui/data-table.css';
import './shipment.css';
import type { ReactNode } from 'react';
import type { Package } from '@/gen/logistics/v1/shipment_pb';
import { Ltr } from '@/components/ui/Bidi';
import { useMessages } from '@/lib/i18n';
import { formatDimensionsCm, formatKg } from '@/utils/format';

type PackagesTableProps = { packages: readonly Package[]; totalWeightKg: number };

// Each column's header is an id of the 'track' catalogue.
// Typed text is isolated in its own direction; dimensions and weights read left to right.
const COLUMNS: ReadonlyArray<{ label: string; value: (p: Package) => ReactNode }> = [
  { label: 'track.packages.quantity', value: (p) => p.quantity },
  { label: 'track.packages.piece_type', value: (p) => <bdi>{p.pieceType}</bdi> },
  { label: 'track.packages.description', value: (p) => <bdi>{p.description}</bdi> },
  { label: 'track.packages.dimensions', value: (p) => <Ltr className="nowrap">{formatDimensionsCm(p.lengthCm, p.widthCm, p.heightCm)}</Ltr> },
  { label: 'track.packages.weight', value: (p) => <bdi>{formatKg(p.weightKg)}</bdi> },
];

/** One row per package line: quantity, piece type, description, L×W×H in cm, weight in kg.
 * Where it has less than about 700 px (a phone, a narrow dialog) each package becomes a card of
 * label and value pairs (shipment.css), so no column is ever off-screen. */
export function PackagesTable({ packages, totalWeightKg }: PackagesTableProps) {
  const t = useMessages('track');
  if (packages.length === 0) {
    return <p className="muted">{t('track.packages.empty')}</p>;
  }
  return (
    <div className="table-scroll packages" role="region" aria-label={t('track.packages.table')} tabIndex={0}>
      <table className="data-table packages-table">
        <caption className="visually-hidden">{t('track.packages.caption')}</caption>
        <thead>
          <tr>
            {COLUMNS.map(({ label }) => (
              <th key={label} scope="col">
                {t(label)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {packages.map((p, index) => (
            <tr key={index}>
              {COLUMNS.map(({ label, value }) => (
                <td key={label} data-label={t(label)}>
                  {value(p)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={COLUMNS.length - 1}>
              {t('track.packages.total_weight')}
            </th>
            <td>
              <bdi>{formatKg(totalWeightKg)}</bdi>
            </td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
