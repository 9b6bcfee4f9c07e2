import { useState } from 'react';
import { Code, ConnectError } from '@connectrpc/connect';
import { RefreshCw } from 'lucide-react';
import { ErrorAlert } from '@/components/ui/ErrorAlert';
import { Spinner } from '@/components/ui/Spinner';
import { useEndpoints } from '../hooks/use-webhooks';
import { EndpointCard } from './EndpointCard';
import { NewEndpointForm } from './NewEndpointForm';
import { SecretPanel, type ShownSecret } from './SecretPanel';
import type { WebhookServiceDesc, WebhookWords } from './words';
import './webhooks.css';

type WebhooksPageProps = {
  /** Whether the signed-in user may manage these endpoints (the server decides too). */
  allowed: boolean;
  service: WebhookServiceDesc;
  words: WebhookWords;
};

/** Webhooks: the endpoints, a form to add one, and each endpoint's deliveries. The back office
 * and the portal pass their words and their service. */
export function WebhooksPage({ allowed, service, words }: WebhooksPageProps) {
  return allowed ? <Endpoints service={service} words={words} /> : <NotAllowed words={words} />;
}

function NotAllowed({ words }: { words: WebhookWords }) {
  return (
    <div className="admin-webhooks">
      <h1>{words.title}</h1>
      <p className="card" role="status" data-testid="webhooks-denied">
        {words.notAllowed}
      </p>
    </div>
  );
}

function Endpoints({ service, words }: { service: WebhookServiceDesc; words: WebhookWords }) {
  const { endpoints, loading, failure, error, reload } = useEndpoints(service, words.loadFailed);
  const [secret, setSecret] = useState<ShownSecret | null>(null);

  // A role taken away since the page opened: the server's refusal reads as the page's rule.
  if (failure && ConnectError.from(failure).code === Code.PermissionDenied) return <NotAllowed words={words} />;

  return (
    <div className="admin-webhooks">
      <div className="admin-page-head">
        <h1>{words.title}</h1>
        <div className="admin-page-actions">
          <button type="button" className="btn btn-outline" onClick={reload} disabled={loading}>
            <RefreshCw className={loading ? 'icon-spin' : undefined} aria-hidden="true" size={18} />
            {words.refresh}
          </button>
        </div>
      </div>
      <p className="muted">{words.intro}</p>
      {secret && <SecretPanel shown={secret} words={words} onDismiss={() => setSecret(null)} />}
      <NewEndpointForm
        service={service}
        words={words}
        onAdded={(endpoint, key) => setSecret({ url: endpoint.url, secret: key })}
      />
      {error && <ErrorAlert message={error} />}
      {loading && endpoints.length === 0 ? (
        <Spinner label={words.loading} />
      ) : endpoints.length === 0 ? (
        !error && <p className="empty-state">{words.empty}</p>
      ) : (
        <ul className="webhook-list" aria-label={words.listLabel}>
          {endpoints.map((endpoint) => (
            <EndpointCard
              key={endpoint.id}
              endpoint={endpoint}
              service={service}
              words={words}
              onSecret={(key) => setSecret({ url: endpoint.url, secret: key })}
            />
          ))}
        </ul>
      )}
    </div>
  );
}
