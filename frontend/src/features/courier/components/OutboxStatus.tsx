import { CloudOff, CloudUpload, CircleCheck } from 'lucide-react';
import { useMessages } from '@/lib/i18n';
import type { Outbox } from '../hooks/use-outbox';
import { eventLabel } from '../utils/labels';

/** Whether the phone is online, what waits to be sent, and what the server refused. */
export function OutboxStatus({ outbox }: { outbox: Outbox }) {
  const t = useMessages('courier');
  const { online, waiting, conflicts } = outbox;
  return (
    <>
      <p className={`courier-connection${online ? '' : ' is-offline'}`} role="status" aria-live="polite">
        {online ? <CloudUpload aria-hidden="true" size={18} /> : <CloudOff aria-hidden="true" size={18} />}
        <span>{online ? t('courier.online') : t('courier.offline')}</span>
        <span className="courier-waiting">
          {waiting.length > 0 ? (
            t('courier.waiting', { count: waiting.length })
          ) : (
            <>
              <CircleCheck aria-hidden="true" size={16} /> {t('courier.all_sent')}
            </>
          )}
        </span>
      </p>
      {conflicts.length > 0 && (
        <section className="courier-card courier-conflicts" aria-labelledby="courier-conflicts-heading">
          <h2 id="courier-conflicts-heading">{t('courier.conflicts.heading')}</h2>
          <ul>
            {conflicts.map((action) => (
              <li key={action.seq}>
                <p>
                  {t('courier.conflicts.refused', {
                    number: action.trackingNumber,
                    event: eventLabel(t, action.event),
                    reason: action.conflict ?? '',
                  })}
                </p>
                <button type="button" className="btn btn-outline btn-sm" onClick={() => outbox.dismiss(action)}>
                  {t('courier.conflicts.dismiss')}
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
