import { Component, lazy, Suspense, type ReactNode } from 'react';
import { Map as MapIcon } from 'lucide-react';
import { Spinner } from '@/components/ui/Spinner';

// The map's code and its bundled geography load with a result only.
const JourneyMap = lazy(() => import('./journey-map/JourneyMap'));

/** Leaves the map out when its code cannot load (offline before it was ever fetched): the
 * history lists the same places. */
class MapBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  componentDidCatch(error: unknown) {
    console.warn('The journey map could not be shown', error);
  }

  render() {
    return this.state.failed ? <p className="muted">The map could not be loaded.</p> : this.props.children;
  }
}

/** The journey on a map: the places of the history, oldest first. */
export function JourneyMapSection({ locations }: { locations: string[] }) {
  return (
    <section className="card map-card" aria-labelledby="map-heading">
      <h2 id="map-heading" className="card-title">
        <MapIcon aria-hidden="true" size={20} />
        Journey Map
      </h2>
      <MapBoundary>
        <Suspense fallback={<Spinner label="Loading the map…" />}>
          <JourneyMap locations={locations} />
        </Suspense>
      </MapBoundary>
    </section>
  );
}
