// The file as the server takes it: checked for size, then sent in parts of at most 1 MiB.

/** The most one AppendShipmentImportData call may carry. */
export const MAX_PART_BYTES = 1_048_576;
/** The largest file the server takes (100 MB). */
export const MAX_FILE_BYTES = 100_000_000;
/** The longest file name the server keeps. */
const MAX_FILE_NAME_LENGTH = 200;

/** The server's own words for a file it would refuse for its size. */
export const EMPTY_FILE_MESSAGE = 'The file is empty.';
export const LARGE_FILE_MESSAGE = 'The file is larger than 100 MB.';

/** A part of the file: bytes `offset` up to (not including) `end`. */
export type FilePart = { offset: number; end: number };

/** The parts of a file of `size` bytes, in order, each at most `partSize` bytes. */
export function fileParts(size: number, partSize = MAX_PART_BYTES): FilePart[] {
  if (!Number.isSafeInteger(size) || size <= 0) return [];
  if (!Number.isSafeInteger(partSize) || partSize <= 0) throw new RangeError('partSize must be a positive whole number');
  const parts: FilePart[] = [];
  for (let offset = 0; offset < size; offset += partSize) {
    parts.push({ offset, end: Math.min(offset + partSize, size) });
  }
  return parts;
}

/** Why the server would refuse a file of `size` bytes, before sending any of it; null if it would not. */
export function fileSizeProblem(size: number): string | null {
  if (size <= 0) return EMPTY_FILE_MESSAGE;
  if (size > MAX_FILE_BYTES) return LARGE_FILE_MESSAGE;
  return null;
}

/** The file's name as the list of imports shows it: at most 200 characters, the extension kept. */
export function importFileName(name: string): string {
  const chars = Array.from(name.trim() || 'import.csv');
  if (chars.length <= MAX_FILE_NAME_LENGTH) return chars.join('');
  const dot = chars.lastIndexOf('.');
  const extension = dot > 0 && chars.length - dot <= 10 ? chars.slice(dot) : [];
  return [...chars.slice(0, MAX_FILE_NAME_LENGTH - extension.length - 1), '…', ...extension].join('');
}
