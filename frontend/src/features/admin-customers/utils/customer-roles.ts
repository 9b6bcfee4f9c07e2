// A customer's user roles, in the words the Customers screens show.
import { Role } from '@/gen/logistics/v1/user_pb';

export const CUSTOMER_ROLES: ReadonlyArray<{ role: Role; label: string }> = [
  { role: Role.CUSTOMER_USER, label: 'Customer user' },
  { role: Role.CUSTOMER_ADMIN, label: 'Customer admin' },
];

export function customerRoleLabel(role: Role): string {
  return CUSTOMER_ROLES.find((r) => r.role === role)?.label ?? 'Unknown';
}
