import { describe, expect, it } from 'vitest';
import { Role } from '@/gen/logistics/v1/user_pb';
import { CUSTOMER_ROLES, customerRoleLabelId, inviteFieldOf } from './users';

describe('the users page helpers', () => {
  it('names the two customer roles, a user first', () => {
    expect(CUSTOMER_ROLES.map((r) => r.role)).toEqual([Role.CUSTOMER_USER, Role.CUSTOMER_ADMIN]);
    expect(customerRoleLabelId(Role.CUSTOMER_ADMIN)).toBe('portal.users.role_admin');
    expect(customerRoleLabelId(Role.CUSTOMER_USER)).toBe('portal.users.role_user');
    expect(customerRoleLabelId(Role.UNSPECIFIED)).toBe('portal.users.role_user');
  });

  it('puts each invitation violation under its input', () => {
    expect(inviteFieldOf('invitation.email')).toBe('email');
    expect(inviteFieldOf('invitation.name')).toBe('name');
    expect(inviteFieldOf('invitation.role')).toBe('role');
    expect(inviteFieldOf('name')).toBe('name');
    expect(inviteFieldOf('language_code')).toBeNull();
    expect(inviteFieldOf('invitation.customer_id')).toBeNull();
    expect(inviteFieldOf('')).toBeNull();
  });
});
