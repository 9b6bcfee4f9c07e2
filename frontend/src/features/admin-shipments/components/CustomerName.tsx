import { Link } from 'react-router-dom';
import { customerPath } from '@/config/routes';
import { useCustomerName } from '../api/shipments';

/** A shipment's customer by name, linked to its page, for those who read customers; its id
 * otherwise (and until the name arrives). */
export function CustomerName({ id, canRead }: { id: string; canRead: boolean }) {
  const name = useCustomerName(id, canRead);
  if (!canRead || name === undefined) return <bdi className="mono">{id}</bdi>;
  return (
    <Link to={customerPath(id)}>
      <bdi>{name}</bdi>
    </Link>
  );
}
