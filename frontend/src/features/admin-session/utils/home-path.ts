import { Role, type User } from '@/gen/logistics/v1/user_pb';
import { isCustomerUser } from '@/config/permissions';
import { ADMIN_HOME_PATH, COURIER_HOME_PATH, PORTAL_HOME_PATH } from '@/config/routes';

/** Where a signed-in user lands (from either sign-in page): a customer's user in the portal, a
 * courier in the courier app, other staff in the back office. */
export function homePathOf(user: User): string {
  if (isCustomerUser(user)) return PORTAL_HOME_PATH;
  return user.role === Role.COURIER ? COURIER_HOME_PATH : ADMIN_HOME_PATH;
}
