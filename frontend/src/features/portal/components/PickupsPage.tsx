import './address-book.css';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Truck } from 'lucide-react';
import { PickupState } from '@/gen/logistics/v1/customer_pb';
import { Field } from '@/components/ui/Field';
import { ErrorAlert } from '@/components/ui/ErrorAlert';
import { Spinner } from '@/components/ui/Spinner';
import { PORTAL_NEW_PICKUP_PATH } from '@/config/routes';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { useMessages } from '@/lib/i18n';
import { serverMessage } from '@/lib/rpc-errors';
import { formatDateParts, formatTimeOfDay } from '@/utils/format';
import { usePickups } from '../api/pickups';

const STATES = [
  { state: PickupState.UNSPECIFIED, label: 'portal.pickups.state_all', tone: '' },
  { state: PickupState.REQUESTED, label: 'portal.pickups.state_requested', tone: 'is-off' },
  { state: PickupState.CONFIRMED, label: 'portal.pickups.state_confirmed', tone: 'tone-green' },
  { state: PickupState.COLLECTED, label: 'portal.pickups.state_collected', tone: 'tone-green' },
  { state: PickupState.FAILED, label: 'portal.pickups.state_failed', tone: 'tone-red' },
] as const;

/** /portal/pickups: the customer's pickups, newest first, and a link to request one. */
export function PickupsPage() {
  const t = useMessages('portal');
  useDocumentTitle(t('portal.pickups.title'));
  const [state, setState] = useState<PickupState>(PickupState.UNSPECIFIED);
  const [pages, setPages] = useState<string[]>(['']);
  const list = usePickups(state, pages[pages.length - 1]);
  return (
    <div className="portal-page">
      <div className="portal-page-head">
        <h1>{t('portal.pickups.title')}</h1>
        <Link to={PORTAL_NEW_PICKUP_PATH} className="btn btn-primary btn-sm">
          <Truck aria-hidden="true" size={16} />
          {t('portal.pickups.request')}
        </Link>
      </div>
      <form className="card address-book-filters" role="search" onSubmit={(e) => e.preventDefault()}>
        <Field id="pickups-state" label={t('portal.pickups.state')}>
          <select
            id="pickups-state"
            className="select"
            value={state}
            onChange={(e) => {
              setState(Number(e.target.value) as PickupState);
              setPages(['']);
            }}
          >
            {STATES.map((s) => (
              <option key={s.state} value={s.state}>
                {t(s.label)}
              </option>
            ))}
          </select>
        </Field>
      </form>
      {list.isPending ? (
        <Spinner size="md" label={t('portal.pickups.loading')} />
      ) : list.error ? (
        <ErrorAlert message={serverMessage(list.error, t('portal.pickups.load_failed'))} />
      ) : list.data.pickups.length === 0 ? (
        <p className="muted">{t('portal.pickups.empty')}</p>
      ) : (
        <ul className="address-book-list" aria-busy={list.isPlaceholderData}>
          {list.data.pickups.map((pickup) => {
            const shown = STATES.find((s) => s.state === pickup.state) ?? STATES[1];
            return (
              <li key={pickup.id} className="card address-book-entry" data-testid="pickup">
                <div>
                  <p className="address-book-name">
                    {pickup.date ? formatDateParts(pickup.date.year, pickup.date.month, pickup.date.day) : ''}{' '}
                    <bdi dir="ltr">
                      {pickup.windowStart && formatTimeOfDay(pickup.windowStart.hours, pickup.windowStart.minutes)}–
                      {pickup.windowEnd && formatTimeOfDay(pickup.windowEnd.hours, pickup.windowEnd.minutes)}
                    </bdi>{' '}
                    <span className={`status-pill ${shown.tone}`}>{t(shown.label)}</span>
                  </p>
                  <p>
                    <bdi>{pickup.area}</bdi> · <bdi>{pickup.address}</bdi>
                  </p>
                  <p className="muted">{t('portal.pickups.parcels', { count: pickup.parcelCount })}</p>
                  {pickup.state === PickupState.FAILED && pickup.failureReason && (
                    <p>{t('portal.pickups.failed_reason', { reason: pickup.failureReason })}</p>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      )}
      {list.data && (pages.length > 1 || list.data.nextPageToken) && (
        <nav className="address-book-pages" aria-label={t('portal.address_book.pages')}>
          <button type="button" className="btn btn-outline btn-sm" disabled={pages.length <= 1} onClick={() => setPages(pages.slice(0, -1))}>
            {t('portal.address_book.previous')}
          </button>
          <button
            type="button"
            className="btn btn-outline btn-sm"
            disabled={!list.data.nextPageToken}
            onClick={() => setPages([...pages, list.data.nextPageToken])}
          >
            {t('portal.address_book.next')}
          </button>
        </nav>
      )}
    </div>
  );
}
