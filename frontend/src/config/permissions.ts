// What a signed-in user may do: the names the services check, one per action, derived from the
// proto's Permission enum (PERMISSION_SHIPMENTS_READ is `shipments.read`, Permission.shipmentsRead
// here). The server is the authority; the UI only hides what would be refused.
import { Permission as ProtoPermission } from '@/gen/logistics/v1/access_pb';
import { Role, type User } from '@/gen/logistics/v1/user_pb';

type ValueName = Exclude<keyof typeof ProtoPermission, 'UNSPECIFIED'>;
/** SHIPMENTS_READ → shipmentsRead */
type Key<N extends string> = N extends `${infer Head}_${infer Rest}`
  ? `${Lowercase<Head>}${Capitalize<Key<Rest>>}`
  : Lowercase<N>;
/** SHIPMENTS_READ → shipments.read: lower case, the first `_` a `.` */
type Name<N extends string> = N extends `${infer Head}_${infer Rest}` ? `${Lowercase<Head>}.${Lowercase<Rest>}` : never;

const key = (value: string) => value.toLowerCase().replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
const name = (value: string) => value.toLowerCase().replace('_', '.');

export const Permission = Object.fromEntries(
  Object.keys(ProtoPermission)
    .filter((value) => value !== 'UNSPECIFIED')
    .map((value) => [key(value), name(value)]),
) as { readonly [V in ValueName as Key<V>]: Name<V> };

export type Permission = (typeof Permission)[keyof typeof Permission];

export function may(user: User, permission: Permission): boolean {
  return !user.disabled && user.permissions.includes(permission);
}

/** Whether the user has any back-office access at all. */
export function hasOfficeAccess(user: User): boolean {
  return !user.disabled && user.permissions.length > 0;
}

/** Whether the user is one of a customer's users (the portal), never staff. */
export function isCustomerUser(user: User): boolean {
  return user.role === Role.CUSTOMER_ADMIN || user.role === Role.CUSTOMER_USER;
}

/** Whether the user is staff with an office role (agent, manager, admin): they make API keys of
 * their own. */
export function isStaff(user: User): boolean {
  return !user.disabled && (user.role === Role.AGENT || user.role === Role.MANAGER || user.role === Role.ADMIN);
}
