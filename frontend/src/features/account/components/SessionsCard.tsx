import { LogOut, MonitorSmartphone, RefreshCw } from 'lucide-react';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { ErrorAlert } from '@/components/ui/ErrorAlert';
import { Spinner } from '@/components/ui/Spinner';
import type { LanguageCode } from '@/config/languages';
import type { Translate } from '@/lib/i18n';
import { formatDateTime } from '@/utils/format';
import { useEndSessions, useOwnSessions } from '../hooks/use-own-sessions';

/** The browsers signed in as this user: each with its device and times, Sign out for each
 * other one, and "Sign out everywhere else". */
export function SessionsCard({ t, language }: { t: Translate; language: LanguageCode }) {
  const { sessions, loading, error, reload } = useOwnSessions(t);
  const { endOne, endingId, endOthers, endingOthers } = useEndSessions(t);
  const others = sessions.filter((s) => !s.current).length;
  return (
    <section className="card account-card" aria-labelledby="sessions-heading" aria-busy={loading}>
      <div className="account-card-head">
        <h2 id="sessions-heading" className="card-title">
          <MonitorSmartphone aria-hidden="true" size={20} />
          {t('account.sessions.heading')}
        </h2>
        <button type="button" className="btn btn-outline btn-sm" onClick={reload} disabled={loading}>
          <RefreshCw className={loading ? 'icon-spin' : undefined} aria-hidden="true" size={16} />
          {t('account.sessions.refresh')}
        </button>
      </div>
      {error && <ErrorAlert message={error} />}
      {loading && sessions.length === 0 ? (
        <Spinner label={t('account.sessions.loading')} />
      ) : (
        <ul className="session-list" aria-label={t('account.sessions.list')}>
          {sessions.map((s) => {
            // The device ("Chrome on Linux") is the server's, in English: its own run in any page.
            const device = s.device || t('account.sessions.unknown_browser');
            const signedIn = formatDateTime(s.createTime && timestampDate(s.createTime), language);
            return (
              <li key={s.id} className="session-item">
                <div className="session-text">
                  <p className="session-device">
                    <bdi>{device}</bdi>
                    {s.current && <span className="session-current">{t('account.sessions.this_browser')}</span>}
                  </p>
                  <p className="session-times">
                    {t('account.sessions.times', {
                      signedIn,
                      lastActive: formatDateTime(s.lastSeenTime && timestampDate(s.lastSeenTime), language),
                    })}
                  </p>
                </div>
                {!s.current && (
                  <button
                    type="button"
                    className="btn btn-outline btn-sm"
                    onClick={() => endOne(s.id)}
                    disabled={endingId === s.id || endingOthers}
                    aria-label={t('account.sessions.sign_out_label', { device, signedIn })}
                  >
                    <LogOut aria-hidden="true" size={16} />
                    {t('account.sessions.sign_out')}
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <div className="form-actions">
        <button
          type="button"
          className="btn btn-primary"
          onClick={endOthers}
          disabled={endingOthers || others === 0}
        >
          <LogOut aria-hidden="true" size={18} />
          {endingOthers ? t('account.sessions.signing_out') : t('account.sessions.sign_out_others')}
        </button>
      </div>
      {others === 0 && !loading && !error && <p className="field-hint">{t('account.sessions.only_here')}</p>}
    </section>
  );
}
