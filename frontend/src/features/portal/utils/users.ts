// The users page's words for roles and where the server's invitation violations go. Pure.
import { Role } from '@/gen/logistics/v1/user_pb';

export type InviteValues = { email: string; name: string; role: string };

/** The two roles a customer admin can give, in the order the select offers them. */
export const CUSTOMER_ROLES: ReadonlyArray<{ role: Role; labelId: string }> = [
  { role: Role.CUSTOMER_USER, labelId: 'portal.users.role_user' },
  { role: Role.CUSTOMER_ADMIN, labelId: 'portal.users.role_admin' },
];

/** The message id naming a customer's user's role (anything else reads as a user). */
export function customerRoleLabelId(role: Role): string {
  return role === Role.CUSTOMER_ADMIN ? 'portal.users.role_admin' : 'portal.users.role_user';
}

/** The form's input for a violation's field ("invitation.email" → email), or null when the form
 * has no such input. */
export function inviteFieldOf(path: string): keyof InviteValues | null {
  const name = path.trim().replace(/^invitation\./, '');
  return name === 'email' || name === 'name' || name === 'role' ? name : null;
}
