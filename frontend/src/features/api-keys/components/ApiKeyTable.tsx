import { useState } from 'react';
import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import { Ban } from 'lucide-react';
import type { ApiKey } from '@/gen/logistics/v1/api_key_service_pb';
import { ConfirmDialog } from '@/components/ui/Modal';
import { serverMessage } from '@/lib/rpc-errors';
import { toast } from '@/lib/toast';
import { formatDateTime, formatDecimal, formatIsoDate } from '@/utils/format';
import { useRevokeApiKey } from '../api/api-keys';
import { apiKeyCalls, apiKeyStatus, type ApiKeyStatus } from '../utils/api-keys';
import type { ApiKeyWords, ScopeOption } from './words';

type ApiKeyTableProps = {
  keys: readonly ApiKey[];
  scopes: readonly ScopeOption[];
  words: ApiKeyWords;
  /** When the list was loaded (ms): statuses and today's calls are as of then. */
  asOf: number;
  busy: boolean;
};

const STATUS_CLASS: Record<ApiKeyStatus, string> = { active: 'is-on', revoked: 'tone-red', expired: 'is-off' };

const when = (time: Timestamp | undefined, otherwise: string) => (time ? formatDateTime(timestampDate(time)) : otherwise);
/** The day (UTC, the day a key expires at the end of). */
const day = (time: Timestamp | undefined, otherwise: string) => (time ? formatIsoDate(timestampDate(time).toISOString().slice(0, 10)) : otherwise);

/** The keys (cards on a phone, a table on a wide screen) with their usage and Revoke. */
export function ApiKeyTable({ keys, scopes, words, asOf, busy }: ApiKeyTableProps) {
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const revoke = useRevokeApiKey();
  const now = new Date(asOf);
  const scopeLabel = (name: string) => scopes.find((s) => s.name === name)?.label ?? name;
  const statusWord: Record<ApiKeyStatus, string> = { active: words.active, revoked: words.revoked, expired: words.expired };

  const confirm = async (key: ApiKey) => {
    try {
      await revoke.mutateAsync({ id: key.id });
      toast.success(words.revokedDone(key.displayName));
      setRevoking(null);
    } catch (error) {
      toast.error(serverMessage(error, words.revokeFailed));
    }
  };

  return (
    <div className="table-cards">
      <div className="table-scroll" role="region" aria-label={words.listLabel} tabIndex={0}>
        <table className="data-table api-keys-table" aria-busy={busy}>
          <thead>
            <tr>
              <th scope="col">{words.name}</th>
              <th scope="col">{words.scopes}</th>
              <th scope="col">{words.status}</th>
              <th scope="col">{words.created}</th>
              <th scope="col">{words.expires}</th>
              <th scope="col">{words.lastUsed}</th>
              <th scope="col">{words.callsToday}</th>
              <th scope="col">{words.calls14Days}</th>
              <th scope="col">{words.limit}</th>
              <th scope="col">
                <span className="visually-hidden">{words.actions}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {keys.map((key) => {
              const status = apiKeyStatus(key, now);
              const calls = apiKeyCalls(key, now);
              return (
                <tr key={key.id} data-key-id={key.id} data-key-name={key.displayName}>
                  <th scope="row" className="cell-text api-key-name">
                    <bdi>{key.displayName}</bdi>
                    <span className="api-key-prefix">
                      <span className="visually-hidden">{words.prefix}: </span>
                      <code dir="ltr" data-testid="api-key-prefix">
                        {key.secretPrefix}…
                      </code>
                    </span>
                  </th>
                  <td data-label={words.scopes} className="cell-text">
                    <ul className="api-key-scope-list">
                      {key.scopes.map((scope) => (
                        <li key={scope}>{scopeLabel(scope)}</li>
                      ))}
                    </ul>
                  </td>
                  <td className="card-aside">
                    <span className={`status-pill ${STATUS_CLASS[status]}`} data-testid="api-key-status">
                      {statusWord[status]}
                    </span>
                  </td>
                  <td data-label={words.created}>{day(key.createTime, '')}</td>
                  <td data-label={words.expires}>{day(key.expireTime, words.noExpiry)}</td>
                  <td data-label={words.lastUsed} className="api-key-last-used" data-testid="api-key-last-used">
                    {when(key.lastUseTime, words.never)}
                  </td>
                  <td data-label={words.callsToday} data-testid="api-key-calls-today">
                    {formatDecimal(calls.today, 0)}
                  </td>
                  <td data-label={words.calls14Days}>
                    <span data-testid="api-key-calls-14-days">{formatDecimal(calls.last14Days, 0)}</span>
                    {key.dailyUsage.length > 0 && (
                      <details className="api-key-usage">
                        <summary>{words.perDay}</summary>
                        <ul aria-label={words.perDayOf(key.displayName)}>
                          {key.dailyUsage.map(({ date, calls: count }) => (
                            <li key={date}>
                              <span>{formatIsoDate(date)}</span> <span>{formatDecimal(Number(count), 0)}</span>
                            </li>
                          ))}
                        </ul>
                      </details>
                    )}
                  </td>
                  <td data-label={words.limit} className="api-key-limit">
                    {words.perMinute(key.rateLimitPerMinute)}
                  </td>
                  <td className="card-actions">
                    {status !== 'revoked' && (
                      <button
                        type="button"
                        className="btn btn-danger btn-sm"
                        aria-label={words.revokeNamed(key.displayName)}
                        disabled={revoke.isPending}
                        onClick={() => setRevoking(key)}
                      >
                        <Ban aria-hidden="true" size={16} />
                        {words.revoke}
                      </button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {revoking && (
        <ConfirmDialog
          title={words.revokeTitle}
          confirmLabel={words.revoke}
          cancelLabel={words.cancel}
          busy={revoke.isPending}
          onCancel={() => setRevoking(null)}
          onConfirm={() => void confirm(revoking)}
        >
          <p>
            <bdi>{words.revokeQuestion(revoking.displayName)}</bdi>
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}
