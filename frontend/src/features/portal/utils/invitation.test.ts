import { describe, expect, it } from 'vitest';
import { passwordsMismatch } from './invitation';

describe('passwordsMismatch', () => {
  it('is true only when the two differ, spaces included', () => {
    expect(passwordsMismatch('correct horse battery', 'correct horse battery')).toBe(false);
    expect(passwordsMismatch('correct horse battery', 'correct horse battery ')).toBe(true);
  });
});
