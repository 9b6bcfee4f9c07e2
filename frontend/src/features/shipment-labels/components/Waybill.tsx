import type { ReactNode } from 'react';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import type { Date as ProtoDate, Shipment, TimeOfDay } from '@/gen/logistics/v1/shipment_pb';
import { Logo } from '@/components/layout/Logo';
import { company } from '@/config/company';
import {
  EMPTY_VALUE,
  formatCents,
  formatDateParts,
  formatDateTime,
  formatDecimal,
  formatKg,
  formatTimeOfDay,
} from '@/utils/format';
import { paymentModeLabel, shipmentModeLabel, shipmentTypeLabel } from '@/utils/shipment';
import { Code128Barcode, QrCode } from './Barcodes';
import { PackageLines, PartyBlock } from './SheetParts';

/** The A4 page less its 12 mm margins, the 28 mm QR code and a 12 mm gap. */
const BARCODE_SPACE_MM = 210 - 2 * 12 - 28 - 12;
/** 1/60 in bars: 5 dots of a 300 dpi office printer, 10 of a 600 dpi one. */
const WAYBILL_MODULE_MM = 25.4 / 60;

function date(d: ProtoDate | undefined): string {
  return d ? formatDateParts(d.year, d.month, d.day) : EMPTY_VALUE;
}

function time(t: TimeOfDay | undefined): string {
  return t ? formatTimeOfDay(t.hours, t.minutes) : EMPTY_VALUE;
}

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{children === '' || children === 0 ? EMPTY_VALUE : children}</dd>
    </div>
  );
}

/** The A4 waybill of one shipment: everything the label has, every package line, the shipment's
 * terms and room for signatures. */
export function Waybill({ shipment: s, trackingLink }: { shipment: Shipment; trackingLink: string }) {
  return (
    <article
      className="print-sheet waybill-sheet"
      aria-label={`Waybill ${s.trackingNumber}`}
      data-tracking-number={s.trackingNumber}
    >
      <header className="waybill-head">
        <div>
          <Logo />
          <p className="waybill-company">
            {company.address}
            <br />
            {company.supportEmail}
          </p>
        </div>
        <div className="waybill-title">
          <h2>Waybill</h2>
          <p>{formatDateTime(s.createTime ? timestampDate(s.createTime) : undefined)}</p>
        </div>
      </header>

      <div className="waybill-codes">
        <div className="waybill-barcode">
          <Code128Barcode
            value={s.trackingNumber}
            availableMm={BARCODE_SPACE_MM}
            maxModuleMm={WAYBILL_MODULE_MM}
            heightMm={16}
          />
          <p className="tracking-text" data-testid="tracking-number">
            {s.trackingNumber}
          </p>
        </div>
        <div className="waybill-qr">
          <QrCode value={trackingLink} sizeMm={28} label={`QR code of the tracking link ${trackingLink}`} />
          <p className="tracking-link">{trackingLink}</p>
        </div>
      </div>

      <div className="waybill-parties">
        <PartyBlock heading="Shipper" name="Shipper" party={s.shipper} className="waybill-party" />
        <PartyBlock heading="Receiver" name="Receiver" party={s.receiver} className="waybill-party" />
      </div>

      <section aria-label="Shipment details">
        <h3 className="sheet-block-title">Shipment</h3>
        <p className="sheet-route">
          {s.origin || EMPTY_VALUE} <span aria-hidden="true">→</span>
          <span className="visually-hidden">to</span> {s.destination || EMPTY_VALUE}
        </p>
        <dl className="waybill-details">
          <Detail term="Carrier">{s.carrier}</Detail>
          <Detail term="Type">
            <span className="capitalize">{shipmentTypeLabel(s.type)}</span>
          </Detail>
          <Detail term="Mode">
            <span className="capitalize">{shipmentModeLabel(s.mode)}</span>
          </Detail>
          <Detail term="Product">{s.product}</Detail>
          <Detail term="Product quantity">{s.productQuantity}</Detail>
          <Detail term="Package count">{s.packageCount}</Detail>
          <Detail term="Payment mode">{paymentModeLabel(s.paymentMode)}</Detail>
          <Detail term="Total freight">{formatCents(s.totalFreightCents, company.currency)}</Detail>
          <Detail term="Pickup">
            {date(s.pickupDate)} {time(s.pickupTime)}
          </Detail>
          <Detail term="Departure time">{time(s.departureTime)}</Detail>
          <Detail term="Expected delivery">{date(s.expectedDeliveryDate)}</Detail>
          <Detail term="Declared weight">{formatKg(s.weightKg)}</Detail>
          <Detail term="Volumetric weight">{formatKg(s.totalVolumetricWeightKg)}</Detail>
          <Detail term="Volume">{`${formatDecimal(s.totalVolumeCubicMetres, 4)} m³`}</Detail>
        </dl>
      </section>

      <section aria-label="Packages">
        <h3 className="sheet-block-title">Packages</h3>
        <PackageLines packages={s.packages} totalWeightKg={s.totalActualWeightKg} />
      </section>

      {s.comments && (
        <section aria-label="Comments">
          <h3 className="sheet-block-title">Comments</h3>
          <p>{s.comments}</p>
        </section>
      )}

      <div className="waybill-signatures">
        {['Shipper', 'Carrier (picked up by)', 'Receiver'].map((who) => (
          <div key={who} className="signature-box">
            <p className="sheet-block-title">{who}</p>
            <p className="signature-line">Signature</p>
            <p className="signature-line">Name and date</p>
          </div>
        ))}
      </div>
    </article>
  );
}
