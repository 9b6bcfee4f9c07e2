import { describe, expect, it } from 'vitest';
import { NOTE_MAX_CHARS, noteCounter, noteLength, tooManyText } from './notes';

describe('a note', () => {
  it('counts characters, not UTF-16 units', () => {
    expect(noteLength('abc')).toBe(3);
    expect(noteLength('📦 ok')).toBe(4);
    expect(noteLength('line 1\nline 2')).toBe(13);
  });

  it('shows its length against the limit, and how far over it is', () => {
    expect(noteCounter('')).toEqual({ text: '0 / 2,000', over: 0 });
    expect(noteCounter('x'.repeat(NOTE_MAX_CHARS))).toEqual({ text: '2,000 / 2,000', over: 0 });
    expect(noteCounter('📦'.repeat(NOTE_MAX_CHARS))).toEqual({ text: '2,000 / 2,000', over: 0 });
    expect(noteCounter('x'.repeat(NOTE_MAX_CHARS + 1))).toEqual({ text: '2,001 / 2,000', over: 1 });
  });

  it('says how many characters too many', () => {
    expect(tooManyText(1)).toBe('1 character too many');
    expect(tooManyText(1234)).toBe('1,234 characters too many');
  });
});
