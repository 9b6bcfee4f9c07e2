import { describe, expect, it } from 'vitest';
import { Permission } from '@/config/permissions';
import { permissionLabel } from './roles';

describe('permissionLabel', () => {
  it('puts every permission of the proto in words', () => {
    for (const name of Object.values(Permission)) expect(permissionLabel(name), name).not.toBe(name);
    expect(permissionLabel('exceptions.manage')).toBe('Assign and resolve exceptions');
  });
});
