import { Component, lazy, Suspense, type ReactNode } from 'react';

// The map, its outline and its gazetteer (about 55 KB gzip) load only when a map is shown.
const LazyJourneyMap = lazy(() => import('./JourneyMap'));

/** The map is an extra: when its code cannot load (offline, never fetched) the page goes on without it. */
class WithoutMapOnError extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  render() {
    return this.state.failed ? null : this.props.children;
  }
}

/** Props: `locations`, the history's places as written, oldest first ("Shanghai, China", …, "Berlin, Germany");
 * `destination`, where the shipment is going. */
export function JourneyMap({ locations, destination }: { locations: readonly string[]; destination: string }) {
  return (
    <WithoutMapOnError>
      {/* The placeholder has the map's shape, so nothing moves when the map arrives. */}
      <Suspense fallback={<div style={{ aspectRatio: '2 / 1' }} aria-hidden="true" />}>
        <LazyJourneyMap locations={locations} destination={destination} />
      </Suspense>
    </WithoutMapOnError>
  );
}
