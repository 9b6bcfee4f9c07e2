import './api-keys.css';
import '@/components/ui/data-table.css';
import { useState } from 'react';
import { Code, ConnectError } from '@connectrpc/connect';
import { RefreshCw } from 'lucide-react';
import { ErrorAlert } from '@/components/ui/ErrorAlert';
import { Spinner } from '@/components/ui/Spinner';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { serverMessage } from '@/lib/rpc-errors';
import { useApiKeyList } from '../api/api-keys';
import type { NewSecret } from '../hooks/use-api-key-form';
import { ApiKeyTable } from './ApiKeyTable';
import { CreateApiKeyForm } from './CreateApiKeyForm';
import { SecretPanel } from './SecretPanel';
import type { ApiKeyWords, ScopeOption } from './words';

type ApiKeysPageProps = {
  /** Whether the signed-in user may manage keys here (the server decides too). */
  allowed: boolean;
  /** The scopes the user may give, in the order the form offers them. */
  scopes: readonly ScopeOption[];
  words: ApiKeyWords;
};

/** API keys: the form that makes one (its secret shown once) and the list with each key's
 * usage and Revoke. The portal and the back office pass their words and scopes. */
export function ApiKeysPage({ allowed, scopes, words }: ApiKeysPageProps) {
  useDocumentTitle(words.title);
  return allowed ? <ApiKeysAdmin scopes={scopes} words={words} /> : <NotAllowed words={words} />;
}

function NotAllowed({ words }: { words: ApiKeyWords }) {
  return (
    <div className="api-keys-page">
      <h1>{words.title}</h1>
      <p className="card api-keys-denied" role="status" data-testid="api-keys-denied">
        {words.notAllowed}
      </p>
    </div>
  );
}

function ApiKeysAdmin({ scopes, words }: { scopes: readonly ScopeOption[]; words: ApiKeyWords }) {
  const list = useApiKeyList();
  // Kept in this component's state only: gone with Done, a reload or leaving the page.
  const [secret, setSecret] = useState<NewSecret | null>(null);

  // A role taken away since the page opened: the server's refusal reads as the page's rule.
  if (list.error && ConnectError.from(list.error).code === Code.PermissionDenied) return <NotAllowed words={words} />;

  const keys = list.data?.apiKeys ?? [];
  return (
    <div className="api-keys-page">
      <div className="api-keys-head">
        <h1>{words.title}</h1>
        <button type="button" className="btn btn-outline btn-sm" onClick={() => void list.refetch()} disabled={list.isFetching}>
          <RefreshCw className={list.isFetching ? 'icon-spin' : undefined} aria-hidden="true" size={16} />
          {words.refresh}
        </button>
      </div>
      <p className="muted">{words.intro}</p>

      {secret && <SecretPanel shown={secret} words={words} onDone={() => setSecret(null)} />}
      <CreateApiKeyForm scopes={scopes} words={words} onCreated={setSecret} />

      {list.error && <ErrorAlert message={serverMessage(list.error, words.loadFailed)} />}
      {list.isPending ? (
        <Spinner size="md" label={words.loading} />
      ) : keys.length === 0 ? (
        !list.error && <p className="card api-keys-empty">{words.empty}</p>
      ) : (
        <ApiKeyTable keys={keys} scopes={scopes} words={words} asOf={list.dataUpdatedAt} busy={list.isFetching} />
      )}
    </div>
  );
}
