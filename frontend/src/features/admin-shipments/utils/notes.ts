// The rules of a staff note's text, as the server checks them (shipment_note_service.proto):
// 1..2,000 characters. The form counts as it goes; the server has the last word.

/** The most characters a note may have. */
export const NOTE_MAX_CHARS = 2_000;

const count = new Intl.NumberFormat('en-US');

/** Its length in characters (code points: an emoji counts once), as the server counts it. */
export function noteLength(text: string): number {
  return Array.from(text).length;
}

/** The counter under the text: "12 / 2,000", and how many characters too many when over. */
export function noteCounter(text: string): { text: string; over: number } {
  const length = noteLength(text);
  return { text: `${count.format(length)} / ${count.format(NOTE_MAX_CHARS)}`, over: Math.max(0, length - NOTE_MAX_CHARS) };
}

/** "1 character too many", "12 characters too many". */
export function tooManyText(over: number): string {
  return `${count.format(over)} ${over === 1 ? 'character' : 'characters'} too many`;
}
