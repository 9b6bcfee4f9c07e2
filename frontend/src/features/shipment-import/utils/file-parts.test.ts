import { describe, expect, it } from 'vitest';
import {
  EMPTY_FILE_MESSAGE,
  LARGE_FILE_MESSAGE,
  MAX_FILE_BYTES,
  MAX_PART_BYTES,
  fileParts,
  fileSizeProblem,
  importFileName,
} from './file-parts';

describe('fileParts', () => {
  it('sends nothing of an empty file', () => {
    expect(fileParts(0)).toEqual([]);
  });

  it('sends a small file in one part', () => {
    expect(fileParts(1)).toEqual([{ offset: 0, end: 1 }]);
    expect(fileParts(MAX_PART_BYTES)).toEqual([{ offset: 0, end: MAX_PART_BYTES }]);
  });

  it('splits at 1 MiB, each part starting where the last ended', () => {
    expect(MAX_PART_BYTES).toBe(1_048_576);
    expect(fileParts(MAX_PART_BYTES + 1)).toEqual([
      { offset: 0, end: MAX_PART_BYTES },
      { offset: MAX_PART_BYTES, end: MAX_PART_BYTES + 1 },
    ]);
    expect(fileParts(10, 4)).toEqual([
      { offset: 0, end: 4 },
      { offset: 4, end: 8 },
      { offset: 8, end: 10 },
    ]);
  });

  it('covers the largest file with parts of at most 1 MiB and no gap', () => {
    const parts = fileParts(MAX_FILE_BYTES);
    expect(parts).toHaveLength(Math.ceil(MAX_FILE_BYTES / MAX_PART_BYTES));
    let expected = 0;
    for (const part of parts) {
      expect(part.offset).toBe(expected);
      expect(part.end - part.offset).toBeGreaterThan(0);
      expect(part.end - part.offset).toBeLessThanOrEqual(MAX_PART_BYTES);
      expected = part.end;
    }
    expect(expected).toBe(MAX_FILE_BYTES);
  });

  it('refuses a part size that would never end', () => {
    expect(() => fileParts(10, 0)).toThrow(RangeError);
  });
});

describe('fileSizeProblem', () => {
  it('says what the server would say', () => {
    expect(fileSizeProblem(0)).toBe(EMPTY_FILE_MESSAGE);
    expect(EMPTY_FILE_MESSAGE).toBe('The file is empty.');
    expect(fileSizeProblem(MAX_FILE_BYTES + 1)).toBe(LARGE_FILE_MESSAGE);
    expect(LARGE_FILE_MESSAGE).toBe('The file is larger than 100 MB.');
  });

  it('takes 1 byte to 100,000,000 bytes', () => {
    expect(fileSizeProblem(1)).toBeNull();
    expect(fileSizeProblem(100_000_000)).toBeNull();
  });
});

describe('importFileName', () => {
  it('keeps a usual name', () => {
    expect(importFileName('shipments March.csv')).toBe('shipments March.csv');
  });

  it('shortens a long name to 200 characters, keeping the extension', () => {
    const name = importFileName(`${'é'.repeat(300)}.csv`);
    expect(Array.from(name)).toHaveLength(200);
    expect(name.endsWith('….csv')).toBe(true);
  });

  it('names a nameless file', () => {
    expect(importFileName('  ')).toBe('import.csv');
  });
});
