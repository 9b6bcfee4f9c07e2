import { NavLink } from 'react-router-dom';
import { ADMIN_ACCOUNT_REQUESTS_PATH, ADMIN_CUSTOMERS_PATH } from '@/config/routes';
import { usePendingRequestCount } from '../api/customers';
import { countBadge } from '../utils/request-params';

/** The customers screen's two views: the customers and the visitors' account requests (with
 * how many wait). */
export function CustomersTabs() {
  const badge = countBadge(usePendingRequestCount());
  const tabClass = ({ isActive }: { isActive: boolean }) => `customers-tab${isActive ? ' active' : ''}`;
  return (
    <nav className="customers-tabs" aria-label="Customers views">
      <NavLink to={ADMIN_CUSTOMERS_PATH} end className={tabClass}>
        Customers
      </NavLink>
      <NavLink to={ADMIN_ACCOUNT_REQUESTS_PATH} className={tabClass}>
        Account requests
        {badge && (
          <span className="customers-tab-badge">
            {badge}
            <span className="visually-hidden"> pending</span>
          </span>
        )}
      </NavLink>
    </nav>
  );
}
