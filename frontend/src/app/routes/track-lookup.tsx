import type { ReactNode } from 'react';
import { useTrackShipment, type TrackLookup as Lookup } from '@/features/tracking/hooks/use-track-shipment';
import { DataProvider } from '../data-provider';

type TrackLookupProps = { trackingNumber: string; accessToken: string; children: (lookup: Lookup) => ReactNode };

/** /track's lookup of a number, with TanStack Query and the Connect client: this module loads
 * with the first lookup (the shared chunk that carries them), so the intro page never does. */
export default function TrackLookup(props: TrackLookupProps) {
  return (
    <DataProvider>
      <Lookup {...props} />
    </DataProvider>
  );
}

function Lookup({ trackingNumber, accessToken, children }: TrackLookupProps) {
  return children(useTrackShipment(trackingNumber, accessToken));
}
