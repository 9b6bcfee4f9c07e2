import { Map as MapIcon } from 'lucide-react';
import { useMessages } from '@/lib/i18n';
import { JourneyMap } from './journey-map';

/** The journey on a map: the places of the history, oldest first, and the destination (the map's code loads with it,
 * and the page goes on without it when that code cannot load). */
export function JourneyMapSection({ locations, destination }: { locations: string[]; destination: string }) {
  const t = useMessages('track');
  return (
    <section className="card map-card" aria-labelledby="map-heading">
      <h2 id="map-heading" className="card-title">
        <MapIcon aria-hidden="true" size={20} />
        {t('track.map.title')}
      </h2>
      <JourneyMap locations={locations} destination={destination} />
    </section>
  );
}
