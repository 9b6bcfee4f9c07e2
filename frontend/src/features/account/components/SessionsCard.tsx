import { LogOut, MonitorSmartphone, RefreshCw } from 'lucide-react';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { ErrorAlert } from '@/components/ui/ErrorAlert';
import { Spinner } from '@/components/ui/Spinner';
import { formatDateTime } from '@/utils/format';
import { useEndSessions, useOwnSessions } from '../hooks/use-own-sessions';

/** The browsers signed in as this user: each with its device and times, Sign out for each
 * other one, and "Sign out everywhere else". */
export function SessionsCard() {
  const { sessions, loading, error, reload } = useOwnSessions();
  const { endOne, endingId, endOthers, endingOthers } = useEndSessions();
  const others = sessions.filter((s) => !s.current).length;
  return (
    <section className="card account-card" aria-labelledby="sessions-heading" aria-busy={loading}>
      <div className="account-card-head">
        <h2 id="sessions-heading" className="card-title">
          <MonitorSmartphone aria-hidden="true" size={20} />
          Where You Are Signed In
        </h2>
        <button type="button" className="btn btn-outline btn-sm" onClick={reload} disabled={loading}>
          <RefreshCw className={loading ? 'icon-spin' : undefined} aria-hidden="true" size={16} />
          Refresh
        </button>
      </div>
      {error && <ErrorAlert message={error} />}
      {loading && sessions.length === 0 ? (
        <Spinner label="Loading your sessions…" />
      ) : (
        <ul className="session-list" aria-label="Sessions">
          {sessions.map((s) => (
            <li key={s.id} className="session-item">
              <div className="session-text">
                <p className="session-device">
                  {s.device || 'Unknown browser'}
                  {s.current && <span className="session-current">This browser</span>}
                </p>
                <p className="session-times">
                  Signed in {formatDateTime(s.createTime && timestampDate(s.createTime))} · Last active{' '}
                  {formatDateTime(s.lastSeenTime && timestampDate(s.lastSeenTime))}
                </p>
              </div>
              {!s.current && (
                <button
                  type="button"
                  className="btn btn-outline btn-sm"
                  onClick={() => endOne(s.id)}
                  disabled={endingId === s.id || endingOthers}
                  aria-label={`Sign out ${s.device || 'unknown browser'}, signed in ${formatDateTime(s.createTime && timestampDate(s.createTime))}`}
                >
                  <LogOut aria-hidden="true" size={16} />
                  Sign out
                </button>
              )}
            </li>
          ))}
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
          {endingOthers ? 'Signing out...' : 'Sign out everywhere else'}
        </button>
      </div>
      {others === 0 && !loading && !error && (
        <p className="field-hint">You are signed in only in this browser.</p>
      )}
    </section>
  );
}
