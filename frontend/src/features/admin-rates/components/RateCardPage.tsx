import { useState } from 'react';
import { Link } from 'react-router-dom';
import { ArrowLeft } from 'lucide-react';
import { Code, ConnectError } from '@connectrpc/connect';
import type { RateCard } from '@/gen/logistics/v1/rate_card_service_pb';
import { ErrorAlert } from '@/components/ui/ErrorAlert';
import { Spinner } from '@/components/ui/Spinner';
import { ADMIN_RATES_PATH } from '@/config/routes';
import { serverMessage } from '@/lib/rpc-errors';
import { useCustomer, useRateCard, useRateCardList } from '../api/rate-cards';
import { PUBLIC_CARD_ID } from '../utils/rate-card-form';
import { RateCardEditor } from './RateCardEditor';
import './rates.css';

/** One rate card (`public` or a customer's id): loads it, or starts a customer's first card when
 * it has none, and edits it. */
export function RateCardPage({ id, canReadCustomers }: { id: string; canReadCustomers: boolean }) {
  const query = useRateCard(id);
  const isPublic = id === PUBLIC_CARD_ID;
  const missing = query.error !== null && ConnectError.from(query.error).code === Code.NotFound;
  const customer = useCustomer(id, missing && !isPublic && canReadCustomers);
  const list = useRateCardList();
  /** The card as this screen last saved it, until the cache has it too. */
  const [saved, setSaved] = useState<RateCard | null>(null);

  if (query.isPending) return <Spinner label="Loading rate card…" />;
  if (query.error && !missing) {
    return (
      <div className="admin-rate-card">
        <BackLink />
        <ErrorAlert message={serverMessage(query.error, 'Failed to load the rate card')} />
      </div>
    );
  }
  if (missing && !isPublic && customer.error) {
    const gone = ConnectError.from(customer.error).code === Code.NotFound;
    return (
      <div className="admin-rate-card">
        <BackLink />
        <ErrorAlert message={gone ? 'Customer not found' : serverMessage(customer.error, 'Failed to load the customer')} />
      </div>
    );
  }
  if (missing && !isPublic && canReadCustomers && customer.isPending) return <Spinner label="Loading customer…" />;

  const loaded = query.data;
  const card = saved && (!loaded || saved.version >= loaded.version) ? saved : loaded;
  const publicCurrency = list.data?.rateCards.find((c) => c.id === PUBLIC_CARD_ID)?.currency ?? '';
  const customerName = card?.customerName || customer.data?.name || '';

  return (
    <div className="admin-rate-card">
      <BackLink />
      <RateCardEditor
        key={`${id}:${card?.version ?? 0}`}
        id={id}
        card={card}
        customerName={customerName}
        publicCurrency={publicCurrency}
        onSaved={setSaved}
        onReload={() => {
          setSaved(null);
          void query.refetch();
        }}
      />
    </div>
  );
}

function BackLink() {
  return (
    <p className="customer-back rates-back">
      <Link to={ADMIN_RATES_PATH}>
        <ArrowLeft className="flip-rtl" aria-hidden="true" size={16} />
        All rate cards
      </Link>
    </p>
  );
}
