import { useState } from 'react';
import type { ShipmentStatus } from '@/gen/logistics/v1/shipment_pb';
import { useMessages } from '@/lib/i18n';
import { statusKey, statusLabelIdOfKey } from '@/utils/shipment';

/** Says "Status: Delivered" to screen readers, politely, when the shown shipment's status changes
 * while the page is open (the result updates itself); nothing when the result first shows (its
 * heading takes the focus and is read then). */
export function StatusAnnouncement({ status }: { status: ShipmentStatus }) {
  const t = useMessages('track');
  const [last, setLast] = useState(status);
  const [said, setSaid] = useState('');
  if (status !== last) {
    // Adjusting state while rendering: React's pattern for state that follows a changed input.
    setLast(status);
    setSaid(t('track.live.status', { status: t(statusLabelIdOfKey(statusKey(status)) ?? 'track.status.unknown') }));
  }
  return (
    <p className="visually-hidden" role="status" aria-live="polite" aria-atomic="true" data-testid="track-live-status">
      {said}
    </p>
  );
}
