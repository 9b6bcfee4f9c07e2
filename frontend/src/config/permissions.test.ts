import { describe, expect, it } from 'vitest';
import { Permission } from './permissions';

describe('Permission', () => {
  it('names each value of the proto enum as the services check it', () => {
    expect(Permission.shipmentsRead).toBe('shipments.read');
    expect(Permission.deliveriesRecord).toBe('deliveries.record');
    expect(Permission.webhooksManage).toBe('webhooks.manage');
    expect(Permission.ratesManage).toBe('rates.manage');
    expect(Permission.exceptionsManage).toBe('exceptions.manage');
    expect(Object.keys(Permission)).toHaveLength(22);
    for (const name of Object.values(Permission)) expect(name).toMatch(/^[a-z]+\.[a-z_]+$/);
  });
});
