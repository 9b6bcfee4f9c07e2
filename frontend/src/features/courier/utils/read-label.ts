// Reads a shipping label's Code 128 or QR code from a camera frame or a photo: with the
// browser's BarcodeDetector where it reads those formats, else with ZXing compiled to
// WebAssembly, bundled and served by this site (nothing is fetched from another host).
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import wasmUrl from 'zxing-wasm/reader/zxing_reader.wasm?url';
import { trackingNumberOf } from './label-code';

/** A photo larger than this is refused before it is decoded. */
const MAX_PHOTO_BYTES = 20_000_000;
/** Frames and photos are scaled down to this many pixels on their longer side first. */
const MAX_SIDE = 1600;

type Source = HTMLVideoElement | Blob;

type NativeDetector = { detect: (source: ImageBitmapSource) => Promise<{ rawValue: string }[]> };
type NativeDetectorClass = {
  new (options: { formats: string[] }): NativeDetector;
  getSupportedFormats: () => Promise<string[]>;
};

let native: Promise<NativeDetector | null> | null = null;

function nativeDetector(): Promise<NativeDetector | null> {
  native ??= (async () => {
    const Detector = (globalThis as { BarcodeDetector?: NativeDetectorClass }).BarcodeDetector;
    if (!Detector) return null;
    try {
      const supported = await Detector.getSupportedFormats();
      const formats = ['code_128', 'qr_code'].filter((f) => supported.includes(f));
      return formats.length === 2 ? new Detector({ formats }) : null;
    } catch {
      return null;
    }
  })();
  return native;
}

let prepared: Promise<unknown> | null = null;

/** Fetches and compiles the bundled reader; after a failure (offline), the next call tries again. */
function prepareBundled(): Promise<unknown> {
  prepared ??= prepareZXingModule({
    // A new object each time: the reader fetches again after a failure.
    overrides: { locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? wasmUrl : prefix + path) },
    fireImmediately: true,
  }).catch(() => {
    prepared = null;
  });
  return prepared;
}

/** Readies the bundled reader now, while the phone is online, unless the browser reads labels
 * itself. */
export function prepareLabelReader(): void {
  void nativeDetector().then((detector) => detector ?? prepareBundled());
}

/** The source's pixels, its longer side at most MAX_SIDE. */
async function pixels(source: Source): Promise<ImageData | null> {
  const bitmap = source instanceof Blob ? await createImageBitmap(source) : null;
  const width = bitmap ? bitmap.width : (source as HTMLVideoElement).videoWidth;
  const height = bitmap ? bitmap.height : (source as HTMLVideoElement).videoHeight;
  if (!width || !height) return null;
  const scale = Math.min(1, MAX_SIDE / Math.max(width, height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(width * scale);
  canvas.height = Math.round(height * scale);
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) return null;
  context.drawImage(bitmap ?? (source as HTMLVideoElement), 0, 0, canvas.width, canvas.height);
  bitmap?.close();
  return context.getImageData(0, 0, canvas.width, canvas.height);
}

/** The tracking number on the label in `source`, or null when none could be read. */
export async function readLabel(source: Source): Promise<string | null> {
  if (source instanceof Blob && source.size > MAX_PHOTO_BYTES) return null;
  const image = await pixels(source);
  if (!image) return null;
  const detector = await nativeDetector();
  if (!detector) await prepareBundled();
  const texts = detector
    ? (await detector.detect(image)).map((code) => code.rawValue)
    : (
        await readBarcodes(image, {
          formats: ['Code128', 'QRCode'],
          tryHarder: true,
          maxNumberOfSymbols: 4,
        })
      ).map((code) => code.text);
  for (const text of texts) {
    const number = trackingNumberOf(text);
    if (number) return number;
  }
  return null;
}
