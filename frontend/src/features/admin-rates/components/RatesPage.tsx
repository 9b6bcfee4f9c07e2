import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Plus, RefreshCw } from 'lucide-react';
import { ErrorAlert } from '@/components/ui/ErrorAlert';
import { Spinner } from '@/components/ui/Spinner';
import '@/components/ui/data-table.css';
import { rateCardPath } from '@/config/routes';
import { serverMessage } from '@/lib/rpc-errors';
import { useRateCardList } from '../api/rate-cards';
import { isPublicCard, pricingText, updatedText, validityText } from '../utils/card-list';
import { PUBLIC_CARD_ID } from '../utils/rate-card-form';
import { AddCustomerCardDialog } from './AddCustomerCardDialog';
import './rates.css';

/** Rates: the public card and each customer's, and "Add a customer card". */
export function RatesPage({ canPickCustomer }: { canPickCustomer: boolean }) {
  const list = useRateCardList();
  const [adding, setAdding] = useState(false);
  const cards = list.data?.rateCards ?? [];
  const hasPublic = cards.some(isPublicCard);
  const loading = list.isFetching;

  return (
    <div className="admin-rates">
      <div className="admin-page-head">
        <h1>Rates</h1>
        <div className="admin-page-actions">
          <button type="button" className="btn btn-outline" onClick={() => void list.refetch()} disabled={loading}>
            <RefreshCw className={loading ? 'icon-spin' : undefined} aria-hidden="true" size={18} />
            Refresh
          </button>
          {canPickCustomer && (
            <button type="button" className="btn btn-primary" onClick={() => setAdding(true)}>
              <Plus aria-hidden="true" size={18} />
              Add a customer card
            </button>
          )}
        </div>
      </div>
      <p className="muted rates-intro">
        Quotes are priced from the public rate card. A customer with a card of its own gets a discount off it, or its own prices.
      </p>

      {list.error && <ErrorAlert message={serverMessage(list.error, 'Failed to load the rate cards')} />}

      {list.isPending ? (
        <Spinner label="Loading rate cards…" />
      ) : (
        !list.error && (
          <div className="table-cards">
            <div className="table-scroll" role="region" aria-label="Rate cards" tabIndex={0}>
              <table className="data-table rates-table" aria-busy={loading}>
                <thead>
                  <tr>
                    <th scope="col">Card</th>
                    <th scope="col">Prices</th>
                    <th scope="col">Version</th>
                    <th scope="col">Valid</th>
                    <th scope="col">Updated</th>
                  </tr>
                </thead>
                <tbody>
                  {!hasPublic && (
                    <tr>
                      <th scope="row">
                        <Link to={rateCardPath(PUBLIC_CARD_ID)}>Public rate card</Link>
                      </th>
                      <td data-label="Prices">Not set up yet</td>
                      <td data-label="Version">—</td>
                      <td data-label="Valid">—</td>
                      <td data-label="Updated">—</td>
                    </tr>
                  )}
                  {cards.map((card) => (
                    <tr key={card.id} data-card-id={card.id}>
                      <th scope="row" className="cell-text">
                        <Link to={rateCardPath(card.id)}>{isPublicCard(card) ? 'Public rate card' : card.customerName || card.id}</Link>
                      </th>
                      <td data-label="Prices">{pricingText(card)}</td>
                      <td data-label="Version" data-testid="rate-card-version">
                        {card.version}
                      </td>
                      <td data-label="Valid">{validityText(card)}</td>
                      <td data-label="Updated" className="cell-email">
                        {updatedText(card)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </div>
        )
      )}
      {!list.isPending && !list.error && cards.every(isPublicCard) && (
        <p className="muted">No customer has a card of its own yet: they are all quoted from the public card.</p>
      )}

      {adding && <AddCustomerCardDialog cardIds={new Set(cards.map((c) => c.id))} onClose={() => setAdding(false)} />}
    </div>
  );
}
