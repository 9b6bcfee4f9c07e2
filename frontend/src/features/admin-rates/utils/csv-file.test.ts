import { describe, expect, it } from 'vitest';
import { MAX_CSV_BYTES, csvFileProblem, importViolationText } from './csv-file';

describe('csvFileProblem', () => {
  it('reads a .csv file up to 1 MB', () => {
    expect(csvFileProblem({ name: 'rates.CSV', size: 2048 })).toBeNull();
    expect(csvFileProblem({ name: 'rates.csv', size: MAX_CSV_BYTES })).toBeNull();
  });

  it('refuses anything else before reading it', () => {
    expect(csvFileProblem({ name: 'rates.xlsx', size: 10 })).toBe('rates.xlsx is not a .csv file.');
    expect(csvFileProblem({ name: 'rates.csv', size: MAX_CSV_BYTES + 1 })).toBe('rates.csv is larger than 1 MB.');
    expect(csvFileProblem({ name: 'rates.csv', size: 0 })).toBe('rates.csv is empty.');
  });
});

describe('importViolationText', () => {
  it('names the row and the column', () => {
    expect(importViolationText({ field: 'row 7, price', description: 'Enter an amount such as 12.50.' })).toBe(
      'Row 7, price: Enter an amount such as 12.50.',
    );
    expect(importViolationText({ field: '', description: 'The file has no header row.' })).toBe('The file has no header row.');
  });
});
