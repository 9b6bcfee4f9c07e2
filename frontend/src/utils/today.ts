/** Today's date as shown on the legal pages, e.g. "November 22, 2026". */
export function longDate(date: Date = new Date()): string {
  return date.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
}
