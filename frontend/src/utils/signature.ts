// A signature drawn on screen: strokes of points in CSS pixels, drawn on the pad and turned
// into the PNG that RecordProofOfDelivery takes (cropped to the ink, black on white).
/** 512 KB, read as 512,000 bytes (the smaller reading), so the server takes it whichever it means. */
const MAX_SIGNATURE_BYTES = 512_000;

export type Point = { x: number; y: number };
export type Stroke = readonly Point[];

/** The pen's width in CSS pixels. */
const INK_WIDTH = 2.5;
/** The ink: the same near-black on the pad in light and dark mode (the pad is white paper). */
const INK_COLOR = '#0f172a';
const PAPER_COLOR = '#ffffff';
/** Room left around the ink in the PNG, in CSS pixels. */
const MARGIN = 8;
/** The PNG is at most this wide (pixels), and at most twice the size drawn. */
const MAX_EXPORT_WIDTH = 1200;
const MAX_EXPORT_SCALE = 2;

export type Bounds = { left: number; top: number; width: number; height: number };

/** The box around every point, `margin` wider on each side; null without a point. */
export function strokeBounds(strokes: readonly Stroke[], margin = MARGIN): Bounds | null {
  let left = Infinity;
  let top = Infinity;
  let right = -Infinity;
  let bottom = -Infinity;
  for (const stroke of strokes) {
    for (const { x, y } of stroke) {
      left = Math.min(left, x);
      top = Math.min(top, y);
      right = Math.max(right, x);
      bottom = Math.max(bottom, y);
    }
  }
  if (left === Infinity) return null;
  return {
    left: left - margin,
    top: top - margin,
    width: right - left + 2 * margin,
    height: bottom - top + 2 * margin,
  };
}

/** Pixels per CSS pixel of the PNG of a signature `width` CSS pixels wide. */
export function exportScale(width: number): number {
  return Math.max(0.25, Math.min(MAX_EXPORT_SCALE, MAX_EXPORT_WIDTH / Math.max(width, 1)));
}

/** Appends `point` unless it is closer than `minDistance` to the stroke's last point. */
export function extendStroke(stroke: Point[], point: Point, minDistance = 0.75): boolean {
  const last = stroke[stroke.length - 1];
  if (last && Math.hypot(point.x - last.x, point.y - last.y) < minDistance) return false;
  stroke.push(point);
  return true;
}

type PathContext = Pick<
  CanvasRenderingContext2D,
  'beginPath' | 'moveTo' | 'lineTo' | 'quadraticCurveTo' | 'arc' | 'stroke' | 'fill'
>;

/** Draws one stroke: a dot for a single point, else a smooth line through the midpoints. */
export function traceStroke(ctx: PathContext, points: Stroke): void {
  if (points.length === 0) return;
  ctx.beginPath();
  if (points.length === 1) {
    ctx.arc(points[0].x, points[0].y, INK_WIDTH / 2, 0, Math.PI * 2);
    ctx.fill();
    return;
  }
  ctx.moveTo(points[0].x, points[0].y);
  for (let i = 1; i < points.length - 1; i += 1) {
    const mid = { x: (points[i].x + points[i + 1].x) / 2, y: (points[i].y + points[i + 1].y) / 2 };
    ctx.quadraticCurveTo(points[i].x, points[i].y, mid.x, mid.y);
  }
  const last = points[points.length - 1];
  ctx.lineTo(last.x, last.y);
  ctx.stroke();
}

/** Sets the pen on a 2D context. */
export function setPen(ctx: CanvasRenderingContext2D): void {
  ctx.lineWidth = INK_WIDTH;
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  ctx.strokeStyle = INK_COLOR;
  ctx.fillStyle = INK_COLOR;
}

function renderPng(strokes: readonly Stroke[], bounds: Bounds, scale: number): Promise<Blob | null> {
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(bounds.width * scale));
  canvas.height = Math.max(1, Math.round(bounds.height * scale));
  const ctx = canvas.getContext('2d');
  if (!ctx) return Promise.resolve(null);
  ctx.fillStyle = PAPER_COLOR;
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.setTransform(scale, 0, 0, scale, -bounds.left * scale, -bounds.top * scale);
  setPen(ctx);
  for (const stroke of strokes) traceStroke(ctx, stroke);
  return new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
}

/** The signature as PNG bytes, cropped to the ink; null when nothing was drawn. Smaller
 * renderings are tried should one be over the server's 512 KB. */
export async function signaturePng(strokes: readonly Stroke[]): Promise<Uint8Array | null> {
  const bounds = strokeBounds(strokes);
  if (!bounds) return null;
  let scale = exportScale(bounds.width);
  for (;;) {
    const blob = await renderPng(strokes, bounds, scale);
    if (!blob) throw new Error('The signature could not be turned into an image.');
    if (blob.size <= MAX_SIGNATURE_BYTES || scale <= 0.5) return new Uint8Array(await blob.arrayBuffer());
    scale /= 2;
  }
}
