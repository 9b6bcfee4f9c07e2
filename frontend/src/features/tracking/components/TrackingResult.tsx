import type { ReactNode } from 'react';
import { Boxes, ClipboardList, History, PackageCheck, Route, Send } from 'lucide-react';
import type { Date as ProtoDate, Shipment, TimeOfDay } from '@/gen/logistics/v1/shipment_pb';
import { EMPTY_VALUE, formatCents, formatDateParts, formatKg, formatTimeOfDay } from '@/utils/format';
import {
  paymentModeLabel,
  shipmentModeIcon,
  shipmentModeLabel,
  shipmentTypeLabel,
  statusKey,
  totalWeightKg,
} from '../utils/shipment-display';
import { CopyTrackingNumberButton } from './CopyTrackingNumberButton';
import { JourneyMap } from './journey-map';
import { HistoryTimeline } from '@/components/shipment/HistoryTimeline';
import { PackagesTable } from '@/components/shipment/PackagesTable';
import { PartyCard } from '@/components/shipment/PartyCard';
import { ShipmentModeIcon } from '@/components/shipment/ShipmentModeIcon';
import { StatusBadge } from '@/components/shipment/StatusBadge';

function formatDate(date: ProtoDate | undefined): string {
  return date ? formatDateParts(date.year, date.month, date.day) : EMPTY_VALUE;
}

function formatTime(time: TimeOfDay | undefined): string {
  return time ? formatTimeOfDay(time.hours, time.minutes) : EMPTY_VALUE;
}

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="detail-row">
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** Everything a visitor may know about the shipment (spec §3 "Track result display"). */
export function TrackingResult({ shipment }: { shipment: Shipment }) {
  const status = statusKey(shipment.status);
  const weight = totalWeightKg(shipment.packages);
  const modeIcon = shipmentModeIcon(shipment.mode);

  return (
    <div className="track-result">
      <section className="card result-summary" aria-labelledby="result-heading">
        <div className="result-summary-top">
          <div>
            <p className="eyebrow">Tracking Number</p>
            <div className="tracking-number-line">
              <h2 id="result-heading" className="tracking-number">
                {shipment.trackingNumber}
              </h2>
              <CopyTrackingNumberButton trackingNumber={shipment.trackingNumber} />
            </div>
          </div>
          <div className="result-status">
            <span className="muted">Status</span>
            <StatusBadge statusKey={status} />
          </div>
        </div>
        <dl className="route-line">
          <div className="route-point">
            <dt>Origin</dt>
            <dd>{shipment.origin || EMPTY_VALUE}</dd>
          </div>
          <div className="route-point route-point-end">
            <dt>Destination</dt>
            <dd>{shipment.destination || EMPTY_VALUE}</dd>
          </div>
        </dl>
        <dl className="summary-facts">
          <Detail term="Current Location">{shipment.currentLocation || EMPTY_VALUE}</Detail>
          <Detail term="Expected Delivery">{formatDate(shipment.expectedDeliveryDate)}</Detail>
        </dl>
      </section>

      {/* A minimal place for the map until the result page is rebuilt around it. */}
      <section className="card" aria-labelledby="journey-heading">
        <h2 id="journey-heading" className="card-title">
          <Route aria-hidden="true" size={20} />
          Journey
        </h2>
        <JourneyMap locations={shipment.history.map((entry) => entry.location)} />
      </section>

      <div className="result-columns">
        <section className="card" aria-labelledby="details-heading">
          <h2 id="details-heading" className="card-title">
            <ClipboardList aria-hidden="true" size={20} />
            Shipment Details
          </h2>
          <dl className="details-list">
            <Detail term="Carrier">{shipment.carrier || EMPTY_VALUE}</Detail>
            <Detail term="Type of Shipment">
              <span className="capitalize">{shipmentTypeLabel(shipment.type)}</span>
            </Detail>
            <Detail term="Shipment Mode">
              <span className="with-icon capitalize">
                <ShipmentModeIcon kind={modeIcon} />
                {shipmentModeLabel(shipment.mode)}
              </span>
            </Detail>
            <Detail term="Package Count">{shipment.packageCount}</Detail>
            <Detail term="Total Weight">{formatKg(weight)}</Detail>
            {shipment.product && <Detail term="Product">{shipment.product}</Detail>}
            {shipment.productQuantity > 0 && <Detail term="Product Quantity">{shipment.productQuantity}</Detail>}
            <Detail term="Payment Mode">{paymentModeLabel(shipment.paymentMode)}</Detail>
            <Detail term="Total Freight">{formatCents(shipment.totalFreightCents)}</Detail>
            <Detail term="Pickup Date">{formatDate(shipment.pickupDate)}</Detail>
            <Detail term="Pickup Time">{formatTime(shipment.pickupTime)}</Detail>
            <Detail term="Departure Time">{formatTime(shipment.departureTime)}</Detail>
            {shipment.comments && <Detail term="Comments">{shipment.comments}</Detail>}
          </dl>
        </section>

        <section className="card" aria-labelledby="history-heading">
          <h2 id="history-heading" className="card-title">
            <History aria-hidden="true" size={20} />
            Shipment History
          </h2>
          <HistoryTimeline history={shipment.history} />
        </section>
      </div>

      <section className="card" aria-labelledby="packages-heading">
        <h2 id="packages-heading" className="card-title">
          <Boxes aria-hidden="true" size={20} />
          Packages
        </h2>
        <PackagesTable packages={shipment.packages} totalWeightKg={weight} />
      </section>

      <div className="result-parties">
        <PartyCard title="Shipper" party={shipment.shipper} icon={<Send aria-hidden="true" size={20} />} />
        <PartyCard title="Receiver" party={shipment.receiver} icon={<PackageCheck aria-hidden="true" size={20} />} />
      </div>
    </div>
  );
}
