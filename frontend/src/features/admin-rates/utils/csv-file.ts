// A rate card's CSV file: checked before it is read, the server's reading errors in words, and
// saving an export as a file.
import type { FieldViolation } from '@/lib/rpc-errors';

/** The largest file ParseRateCardCsv reads (1 MB). */
export const MAX_CSV_BYTES = 1_000_000;

/** Why a chosen file is not read at all, or null. */
export function csvFileProblem(file: Pick<File, 'name' | 'size'>): string | null {
  if (!/\.csv$/i.test(file.name)) return `${file.name} is not a .csv file.`;
  if (file.size > MAX_CSV_BYTES) return `${file.name} is larger than 1 MB.`;
  if (file.size === 0) return `${file.name} is empty.`;
  return null;
}

/** "row 7, price" + "Enter a number" → "Row 7, price: Enter a number". */
export function importViolationText({ field, description }: FieldViolation): string {
  const where = field.trim();
  if (!where) return description;
  return `${where.charAt(0).toUpperCase()}${where.slice(1)}: ${description}`;
}

/** Saves `text` as a download named `fileName`. */
export function saveTextFile(text: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
