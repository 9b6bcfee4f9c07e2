import { create } from '@bufbuild/protobuf';
import { describe, expect, it } from 'vitest';
import { Role, UserSchema } from '@/gen/logistics/v1/user_pb';
import { homePathOf } from './home-path';

describe('homePathOf', () => {
  it('sends a customer admin and a customer user to the portal', () => {
    expect(homePathOf(create(UserSchema, { role: Role.CUSTOMER_ADMIN, customerId: 'c1' }))).toBe('/portal');
    expect(homePathOf(create(UserSchema, { role: Role.CUSTOMER_USER, customerId: 'c1' }))).toBe('/portal');
  });

  it('sends staff of every role to the back office', () => {
    for (const role of [Role.ADMIN, Role.MANAGER, Role.AGENT, Role.USER]) {
      expect(homePathOf(create(UserSchema, { role }))).toBe('/administration_and_development');
    }
  });

  it('sends a courier to the courier app', () => {
    expect(homePathOf(create(UserSchema, { role: Role.COURIER }))).toBe('/courier');
  });
});
