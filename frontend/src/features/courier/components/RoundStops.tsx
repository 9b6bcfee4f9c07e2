import { MapPin, Package, Phone, Truck } from 'lucide-react';
import type { Pickup } from '@/gen/logistics/v1/customer_pb';
import type { Shipment } from '@/gen/logistics/v1/shipment_pb';
import { Ltr } from '@/components/ui/Bidi';
import { useMessages } from '@/lib/i18n';
import { formatTimeOfDay } from '@/utils/format';
import { callLink, groupByArea, mapLink, type Stop } from '../utils/stops';

/** The day's stops by area; a delivery opens the shipment to record what happened. */
export function RoundStops({
  pickups,
  shipments,
  loading,
  failed,
  onOpen,
}: {
  pickups: readonly Pickup[];
  shipments: readonly Shipment[];
  loading: boolean;
  failed: boolean;
  onOpen: (trackingNumber: string) => void;
}) {
  const t = useMessages('courier');
  const areas = groupByArea(pickups, shipments);
  return (
    <section className="courier-stops" aria-labelledby="courier-stops-heading" aria-busy={loading}>
      <h2 id="courier-stops-heading">{t('courier.stops.heading')}</h2>
      {loading && areas.length === 0 && <p className="muted">{t('courier.stops.loading')}</p>}
      {failed && <p className="courier-warning">{t('courier.stops.failed')}</p>}
      {!loading && !failed && areas.length === 0 && <p className="muted">{t('courier.stops.empty')}</p>}
      {areas.map((area) => (
        <section key={area.name} className="courier-area" aria-label={area.name}>
          <h3>
            <bdi>{area.name}</bdi>
          </h3>
          <ul className="courier-stop-list">
            {area.stops.map((stop) => (
              <StopCard key={stop.key} stop={stop} onOpen={onOpen} />
            ))}
          </ul>
        </section>
      ))}
    </section>
  );
}

function StopCard({ stop, onOpen }: { stop: Stop; onOpen: (trackingNumber: string) => void }) {
  const t = useMessages('courier');
  const call = callLink(stop.phone);
  return (
    <li className="courier-card courier-stop" data-kind={stop.kind}>
      <p className="courier-stop-kind">
        {stop.kind === 'pickup' ? <Package aria-hidden="true" size={16} /> : <Truck aria-hidden="true" size={16} />}
        {stop.kind === 'pickup' ? t('courier.stops.pickup') : t('courier.stops.delivery')}
        {stop.kind === 'delivery' && (
          <span className="mono">
            {' '}
            <Ltr>{stop.shipment.trackingNumber}</Ltr>
          </span>
        )}
      </p>
      <p className="courier-stop-name">
        <bdi>{stop.name}</bdi>
      </p>
      <p className="courier-stop-address">
        <bdi>{stop.address}</bdi>
      </p>
      {stop.kind === 'pickup' && stop.pickup.windowStart && stop.pickup.windowEnd && (
        <p className="muted">
          {t('courier.stops.window', {
            start: formatTimeOfDay(stop.pickup.windowStart.hours, stop.pickup.windowStart.minutes),
            end: formatTimeOfDay(stop.pickup.windowEnd.hours, stop.pickup.windowEnd.minutes),
          })}{' '}
          · {t('courier.stops.parcels', { count: stop.pickup.parcelCount })}
        </p>
      )}
      <div className="courier-stop-actions">
        {call && (
          <a className="btn btn-outline btn-sm" href={call} aria-label={t('courier.stops.call', { name: stop.name })}>
            <Phone aria-hidden="true" size={16} />
            {t('courier.stops.call_short')}
          </a>
        )}
        <a
          className="btn btn-outline btn-sm"
          href={mapLink(stop.address, stop.area)}
          target="_blank"
          rel="noopener noreferrer"
          aria-label={t('courier.stops.map', { address: stop.address })}
        >
          <MapPin aria-hidden="true" size={16} />
          {t('courier.stops.map_short')}
        </a>
        {stop.kind === 'delivery' && (
          <button type="button" className="btn btn-primary btn-sm" onClick={() => onOpen(stop.shipment.trackingNumber)}>
            {t('courier.stops.open', { number: stop.shipment.trackingNumber })}
          </button>
        )}
      </div>
    </li>
  );
}
