// The Track page's sentences (spec §5, §8). Kept apart from shipment-display.ts so the page
// can show them without loading the generated protobuf code.
export const NOT_FOUND_MESSAGE = 'Shipment not found. Please check your tracking number and try again.';
export const EMPTY_INPUT_MESSAGE = 'Please enter a tracking number.';
export const COPIED_MESSAGE = 'Tracking number copied to clipboard!';
