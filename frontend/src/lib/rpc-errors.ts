// Reading errors of the Connect clients: the server's message and its field violations.
import { Code, ConnectError } from '@connectrpc/connect';
import { BadRequestSchema } from '@/gen/google/rpc/error_details_pb';

export type FieldViolation = { field: string; description: string };

/** The server's own sentence (ConnectError.rawMessage), or `fallback` when it has none or the
 * call never reached the server (network failure, timeout, cancelled). */
export function serverMessage(error: unknown, fallback: string): string {
  const err = ConnectError.from(error);
  if (err.code === Code.Canceled || err.code === Code.DeadlineExceeded || err.code === Code.Unknown) {
    return fallback;
  }
  if (err.code === Code.Unavailable && /fetch|network/i.test(err.rawMessage)) return fallback;
  return err.rawMessage.trim() || fallback;
}

/** The google.rpc.BadRequest field violations of an InvalidArgument error (empty otherwise). */
export function fieldViolations(error: unknown): FieldViolation[] {
  const err = ConnectError.from(error);
  return err
    .findDetails(BadRequestSchema)
    .flatMap((bad) => bad.fieldViolations)
    .map((v) => ({ field: v.field, description: v.description }));
}

/** What a form with one input shows next to it after a failed call: the field violations'
 * descriptions, else the server's sentence (a rate limit, for example), else `fallback`. */
export function singleFieldError(error: unknown, fallback: string): string {
  const violations = fieldViolations(error);
  if (violations.length > 0) return violations.map((v) => v.description).join(' ');
  return serverMessage(error, fallback);
}
