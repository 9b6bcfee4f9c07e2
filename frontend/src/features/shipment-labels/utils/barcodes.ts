// Code 128 and QR code as SVG markup, drawn here by bwip-js (no network, no canvas). Only the
// two encoders are imported, so the bundle leaves out bwip-js's hundred other symbologies.
import { code128, drawingSVG, qrcode } from 'bwip-js/browser';

/** Code 128 needs at least 10 modules of blank space on each side (ISO/IEC 15417). */
export const CODE128_QUIET_MODULES = 10;
/** QR codes need 4 modules of blank space all round (ISO/IEC 18004). */
const QR_QUIET_MODULES = 4;
/** The thinnest bar a 203 dpi label printer and a common scanner both handle. */
export const MIN_MODULE_MM = 0.25;

export type BarcodeSvg = {
  /** `<svg …>` with a viewBox, its own quiet zones, black marks and no text. */
  markup: string;
  /** How many modules wide the symbol is, quiet zones included. */
  modules: number;
};

function withAttributes(svg: string): string {
  // Stretch to the box CSS gives it; the outer element carries the accessible name.
  return svg.replace('<svg ', '<svg preserveAspectRatio="none" aria-hidden="true" focusable="false" ');
}

function viewBoxWidth(svg: string): number {
  const match = /viewBox="0 0 ([\d.]+) [\d.]+"/.exec(svg);
  if (!match) throw new Error('bwip-js returned an SVG without a viewBox');
  return Number(match[1]);
}

/** A Code 128 symbol of `text` (one viewBox unit per module). */
export function code128Svg(text: string): BarcodeSvg {
  const options = { bcid: 'code128', text, scale: 1, height: 10, paddingwidth: CODE128_QUIET_MODULES };
  const svg = code128(options, drawingSVG());
  return { markup: withAttributes(svg), modules: viewBoxWidth(svg) };
}

/** A QR code of `text`, at BWIPP's default error correction M (15 % of it may be damaged). */
export function qrSvg(text: string): BarcodeSvg {
  // bwip-js draws a 2D module as 2 units at scale 1; padding is in modules × scale units.
  const svg = qrcode(
    { bcid: 'qrcode', text, scale: 1, paddingwidth: QR_QUIET_MODULES * 2, paddingheight: QR_QUIET_MODULES * 2 },
    drawingSVG(),
  );
  return { markup: withAttributes(svg), modules: viewBoxWidth(svg) / 2 };
}

/** The module width (mm) that fits `modules` into `availableMm`, at most `maxMm`; never under
 * MIN_MODULE_MM, so a long symbol overflows rather than becoming unreadable. */
export function moduleWidthMm(modules: number, availableMm: number, maxMm: number): number {
  const fit = Math.floor((availableMm / modules) * 1000) / 1000;
  return Math.max(MIN_MODULE_MM, Math.min(maxMm, fit));
}
