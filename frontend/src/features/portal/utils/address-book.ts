// The address book's pure parts: the import's error lines and its CSV template.
import type { FieldViolation } from '@/lib/rpc-errors';

/** The header an import file starts with (the server's order). */
export const ADDRESS_BOOK_CSV_HEADER = 'kind,name,address,phone,email';

/** A template to fill in: the header and one example row of each kind. */
export function addressBookTemplate(): string {
  return `${ADDRESS_BOOK_CSV_HEADER}\nsender,Main warehouse,1 Harbour Road,+1 555 0100,warehouse@example.com\nreceiver,Ana Pérez,22 Calle Mayor,+34 600 000 000,ana@example.com\n`;
}

/** The template as a link target (no request: built in the page). */
export function addressBookTemplateUrl(): string {
  return `data:text/csv;charset=utf-8,${encodeURIComponent(addressBookTemplate())}`;
}

/** One import error as shown: its row and column when the field names them (`rows[N].column`). */
export type ImportError = { row?: number; column?: string; message: string };

export function importErrors(violations: readonly FieldViolation[]): ImportError[] {
  return violations.map(({ field, description }) => {
    const match = /^rows\[(\d+)\](?:\.(\w+))?$/.exec(field);
    if (!match) return { message: description };
    return { row: Number(match[1]), column: match[2], message: description };
  });
}
