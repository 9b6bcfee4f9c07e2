import { describe, expect, it } from 'vitest';
import { addressBookTemplate, addressBookTemplateUrl, importErrors } from './address-book';

describe('importErrors', () => {
  it('reads the row and column the server names', () => {
    expect(importErrors([{ field: 'rows[3].email', description: 'Enter a valid e-mail address' }])).toEqual([
      { row: 3, column: 'email', message: 'Enter a valid e-mail address' },
    ]);
  });
  it('keeps a row without column, and a general error', () => {
    expect(
      importErrors([
        { field: 'rows[2]', description: 'Expected 5 columns' },
        { field: 'csv', description: 'The file is empty' },
      ]),
    ).toEqual([{ row: 2, column: undefined, message: 'Expected 5 columns' }, { message: 'The file is empty' }]);
  });
});

describe('addressBookTemplate', () => {
  it('starts with the header the import reads', () => {
    expect(addressBookTemplate().split('\n')[0]).toBe('kind,name,address,phone,email');
    expect(decodeURIComponent(addressBookTemplateUrl().split(',').slice(1).join(','))).toBe(addressBookTemplate());
  });
});
