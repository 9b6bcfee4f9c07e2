// PLACEHOLDER so the tracking result builds until the `map` branch lands: that branch's
// JourneyMap (bundled outline and gazetteer) replaces this file at merge.

/** The journey through `locations` (oldest first) on a map. */
export default function JourneyMap({ locations }: { locations: string[] }) {
  return <svg role="img" aria-label="Map of the journey" width="100%" height="120" data-places={locations.length} />;
}
