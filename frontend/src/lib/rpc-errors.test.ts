import { describe, expect, it } from 'vitest';
import { Code, ConnectError } from '@connectrpc/connect';
import { BadRequestSchema } from '@/gen/google/rpc/error_details_pb';
import { fieldViolations, serverMessage, singleFieldError } from './rpc-errors';

describe('fieldViolations', () => {
  it('reads the google.rpc.BadRequest details', () => {
    const error = new ConnectError('invalid shipment', Code.InvalidArgument, undefined, [
      {
        desc: BadRequestSchema,
        value: {
          fieldViolations: [
            { field: 'shipper.email', description: 'Enter a valid e-mail address' },
            { field: 'packages[1].quantity', description: 'Quantity must be at least 1' },
          ],
        },
      },
    ]);
    expect(fieldViolations(error)).toEqual([
      { field: 'shipper.email', description: 'Enter a valid e-mail address' },
      { field: 'packages[1].quantity', description: 'Quantity must be at least 1' },
    ]);
  });

  it('is empty without details', () => {
    expect(fieldViolations(new ConnectError('nope', Code.NotFound))).toEqual([]);
    expect(fieldViolations(new Error('boom'))).toEqual([]);
  });
});

describe('serverMessage', () => {
  it("uses the server's sentence, else the fallback", () => {
    expect(serverMessage(new ConnectError('Shipment not found', Code.NotFound), 'x')).toBe('Shipment not found');
    expect(serverMessage(new ConnectError('', Code.Internal), 'fallback')).toBe('fallback');
    expect(serverMessage(new ConnectError('the operation timed out', Code.DeadlineExceeded), 'fallback')).toBe('fallback');
    expect(serverMessage(new TypeError('Failed to fetch'), 'fallback')).toBe('fallback');
  });
});

describe('singleFieldError', () => {
  it('shows the field violations, else the server sentence, else the fallback', () => {
    const invalid = new ConnectError('invalid', Code.InvalidArgument, undefined, [
      { desc: BadRequestSchema, value: { fieldViolations: [{ field: 'answer', description: 'These details do not match this shipment.' }] } },
    ]);
    expect(singleFieldError(invalid, 'x')).toBe('These details do not match this shipment.');
    const limited = new ConnectError('Too many attempts. Please try again in 15 minutes.', Code.ResourceExhausted);
    expect(singleFieldError(limited, 'x')).toBe('Too many attempts. Please try again in 15 minutes.');
    expect(singleFieldError(new TypeError('Failed to fetch'), 'fallback')).toBe('fallback');
  });
});
