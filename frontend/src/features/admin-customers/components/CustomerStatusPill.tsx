import { CustomerStatus } from '@/gen/logistics/v1/customer_pb';
import { customerStatusLabel } from '../utils/customer-form';

/** Active (green) or Suspended (grey). */
export function CustomerStatusPill({ status }: { status: CustomerStatus }) {
  return (
    <span className={`status-pill ${status === CustomerStatus.SUSPENDED ? 'is-off' : 'is-on'}`}>
      {customerStatusLabel(status)}
    </span>
  );
}
