import { useState } from 'react';
import { RefreshCw } from 'lucide-react';
import { ErrorAlert } from '@/components/ui/ErrorAlert';
import { Spinner } from '@/components/ui/Spinner';
import { useEndpoints } from '../hooks/use-webhooks';
import { EndpointCard } from './EndpointCard';
import { NewEndpointForm } from './NewEndpointForm';
import { SecretPanel, type ShownSecret } from './SecretPanel';
import './webhooks.css';

/** Webhooks: the endpoints, a form to add one, and each endpoint's deliveries. */
export function WebhooksPage() {
  const { endpoints, loading, error, reload } = useEndpoints();
  const [secret, setSecret] = useState<ShownSecret | null>(null);

  return (
    <div className="admin-webhooks">
      <div className="admin-page-head">
        <h1>Webhooks</h1>
        <div className="admin-page-actions">
          <button type="button" className="btn btn-outline" onClick={reload} disabled={loading}>
            <RefreshCw className={loading ? 'icon-spin' : undefined} aria-hidden="true" size={18} />
            Refresh
          </button>
        </div>
      </div>
      <p className="muted">
        Your other systems (an ERP, a shop, a CRM) are told when a shipment changes: a signed JSON POST per event, retried
        for a day. The README shows how a receiver checks the signature.
      </p>
      {secret && <SecretPanel shown={secret} onDismiss={() => setSecret(null)} />}
      <NewEndpointForm
        onAdded={(endpoint, key) => setSecret({ url: endpoint.url, secret: key })}
      />
      {error && <ErrorAlert message={error} />}
      {loading && endpoints.length === 0 ? (
        <Spinner label="Loading webhook endpoints…" />
      ) : endpoints.length === 0 ? (
        !error && <p className="empty-state">No webhook endpoints yet.</p>
      ) : (
        <ul className="webhook-list" aria-label="Webhook endpoints">
          {endpoints.map((endpoint) => (
            <EndpointCard
              key={endpoint.id}
              endpoint={endpoint}
              onSecret={(key) => setSecret({ url: endpoint.url, secret: key })}
            />
          ))}
        </ul>
      )}
    </div>
  );
}
