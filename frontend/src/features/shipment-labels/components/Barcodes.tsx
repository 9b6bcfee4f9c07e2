import { useMemo } from 'react';
import { code128Svg, moduleWidthMm, qrSvg } from '../utils/barcodes';

type Code128Props = {
  value: string;
  /** The width the symbol may take, quiet zones included. */
  availableMm: number;
  /** The widest module wanted; wider bars scan from further away. */
  maxModuleMm: number;
  heightMm: number;
};

/** A Code 128 symbol, sized in millimetres so each module prints at least 0.25 mm wide. */
export function Code128Barcode({ value, availableMm, maxModuleMm, heightMm }: Code128Props) {
  const { markup, modules } = useMemo(() => code128Svg(value), [value]);
  const module = moduleWidthMm(modules, availableMm, maxModuleMm);
  return (
    <div
      className="barcode"
      role="img"
      aria-label={`Code 128 barcode of ${value}`}
      data-barcode="code128"
      data-module-mm={module}
      style={{ width: `${(modules * module).toFixed(2)}mm`, height: `${heightMm}mm` }}
      // Markup drawn on this machine by bwip-js from the value: bars only, no text or links.
      dangerouslySetInnerHTML={{ __html: markup }}
    />
  );
}

/** A QR code of `value`, `sizeMm` square with its quiet zone. */
export function QrCode({ value, sizeMm, label }: { value: string; sizeMm: number; label: string }) {
  const { markup } = useMemo(() => qrSvg(value), [value]);
  return (
    <div
      className="barcode"
      role="img"
      aria-label={label}
      data-barcode="qr"
      style={{ width: `${sizeMm}mm`, height: `${sizeMm}mm` }}
      dangerouslySetInnerHTML={{ __html: markup }}
    />
  );
}
