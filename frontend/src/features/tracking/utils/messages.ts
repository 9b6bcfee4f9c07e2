// The Track page's sentences (spec §5, §8). Kept apart from shipment-display.ts so the page
// can show them without loading the generated protobuf code.
export const NOT_FOUND_MESSAGE = 'Shipment not found. Please check your tracking number and try again.';
export const EMPTY_INPUT_MESSAGE = 'Please enter a tracking number.';
export const COPIED_MESSAGE = 'Tracking number copied to clipboard!';

// Subscriptions by e-mail (the links in their e-mails land on /track/{number}).
export const CONFIRMED_MESSAGE = "You will get an e-mail whenever this shipment's status changes.";
export const CONFIRM_FAILED_MESSAGE = 'This confirmation link could not be used. Please subscribe again.';
export const UNSUBSCRIBE_FAILED_MESSAGE = 'This unsubscribe link could not be used. Please try again later.';

export function unsubscribedMessage(trackingNumber: string): string {
  return `You will no longer get updates for ${trackingNumber}.`;
}
