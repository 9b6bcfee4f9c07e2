import type { Shipment } from '@/gen/logistics/v1/shipment_pb';
import { Logo } from '@/components/layout/Logo';
import { EMPTY_VALUE, formatDateParts } from '@/utils/format';
import { shipmentModeLabel, shipmentTypeLabel } from '@/utils/shipment';
import { Code128Barcode, QrCode } from './Barcodes';
import { PackageLines, PackageTotals, PartyBlock } from './SheetParts';

/** 4 in less 3 mm of margin each side. */
const LABEL_INNER_MM = 101.6 - 6;
/** 0.02 in bars: 4 dots of a 203 dpi label printer, 6 of a 300 dpi one. */
const LABEL_MODULE_MM = 25.4 / 50;
/** Package lines that fit on the label; the waybill lists them all. */
const LABEL_MAX_LINES = 3;

/** The 4 × 6 in shipping label of one shipment. */
export function ShippingLabel({ shipment: s, trackingLink }: { shipment: Shipment; trackingLink: string }) {
  const due = s.expectedDeliveryDate;
  return (
    <article
      className="print-sheet label-sheet"
      aria-label={`Shipping label ${s.trackingNumber}`}
      data-tracking-number={s.trackingNumber}
    >
      <h2 className="visually-hidden">Shipping label {s.trackingNumber}</h2>
      <header className="label-head">
        <Logo />
        <p className="label-service">
          <strong>{shipmentTypeLabel(s.type)}</strong>
          <span>{shipmentModeLabel(s.mode)}</span>
        </p>
      </header>
      <p className="sheet-route">
        <span className="route-text">
          {s.origin || EMPTY_VALUE} <span aria-hidden="true">→</span>
          <span className="visually-hidden">to</span> {s.destination || EMPTY_VALUE}
        </span>
      </p>
      <PartyBlock heading="From" name="Shipper" party={s.shipper} className="label-from" />
      <PartyBlock heading="To" name="Receiver" party={s.receiver} className="label-to" />
      <div className="label-packages">
        <div className="label-lines">
          <PackageLines packages={s.packages} maxLines={LABEL_MAX_LINES} />
        </div>
        <PackageTotals packages={s.packages} totalWeightKg={s.totalActualWeightKg} />
      </div>
      <div className="label-barcode">
        <Code128Barcode
          value={s.trackingNumber}
          availableMm={LABEL_INNER_MM}
          maxModuleMm={LABEL_MODULE_MM}
          heightMm={18}
        />
        <p className="tracking-text" data-testid="tracking-number">
          {s.trackingNumber}
        </p>
      </div>
      <footer className="label-foot">
        <QrCode value={trackingLink} sizeMm={24} label={`QR code of the tracking link ${trackingLink}`} />
        <div className="label-foot-text">
          <p className="sheet-block-title">Track this shipment</p>
          <p className="tracking-link">{trackingLink}</p>
          <p>
            <span className="sheet-term">Carrier</span> {s.carrier || EMPTY_VALUE}
          </p>
          <p>
            <span className="sheet-term">Expected</span>{' '}
            {due ? formatDateParts(due.year, due.month, due.day) : EMPTY_VALUE}
          </p>
        </div>
      </footer>
    </article>
  );
}
