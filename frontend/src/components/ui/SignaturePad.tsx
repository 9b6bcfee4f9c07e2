import { useCallback, useEffect, useRef, type PointerEvent } from 'react';
import { extendStroke, setPen, traceStroke, type Point, type Stroke } from '@/utils/signature';
import './signature-pad.css';

type SignaturePadProps = {
  /** The strokes drawn so far (kept by the parent, so they outlive the pad). */
  strokes: readonly Stroke[];
  /** Called with every stroke once the finger or the button is lifted. */
  onChange: (strokes: Stroke[]) => void;
  disabled?: boolean;
};

/**
 * A canvas to sign on with a finger, a pen or the mouse (pointer events; `touch-action: none`
 * so a finger draws instead of scrolling). Its bitmap follows the element's size and the
 * screen's pixel ratio; the strokes are kept in CSS pixels and drawn again after a resize.
 */
export function SignaturePad({ strokes, onChange, disabled = false }: SignaturePadProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const drawing = useRef<{ pointerId: number; points: Point[]; origin: DOMRect } | null>(null);
  const latest = useRef(strokes);

  const redraw = useCallback(() => {
    const canvas = canvasRef.current;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx || canvas.clientWidth === 0) return;
    const ratio = canvas.width / canvas.clientWidth;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    setPen(ctx);
    for (const stroke of latest.current) traceStroke(ctx, stroke);
    if (drawing.current) traceStroke(ctx, drawing.current.points);
  }, []);

  useEffect(() => {
    latest.current = strokes;
    redraw();
  }, [strokes, redraw]);

  // The bitmap follows the element's size (a phone turned, a dialog resized).
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const fit = () => {
      const ratio = Math.min(window.devicePixelRatio || 1, 3);
      const width = Math.round(canvas.clientWidth * ratio);
      const height = Math.round(canvas.clientHeight * ratio);
      if (width === 0 || height === 0) return;
      if (canvas.width !== width || canvas.height !== height) {
        canvas.width = width;
        canvas.height = height;
      }
      redraw();
    };
    fit();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(fit);
    observer.observe(canvas);
    return () => observer.disconnect();
  }, [redraw]);

  const pointOf = (event: { clientX: number; clientY: number }, origin: DOMRect): Point => ({
    x: Math.round((event.clientX - origin.left) * 10) / 10,
    y: Math.round((event.clientY - origin.top) * 10) / 10,
  });

  const onPointerDown = (event: PointerEvent<HTMLCanvasElement>) => {
    if (disabled || drawing.current || (event.pointerType === 'mouse' && event.button !== 0)) return;
    event.preventDefault();
    const canvas = event.currentTarget;
    canvas.setPointerCapture?.(event.pointerId);
    const origin = canvas.getBoundingClientRect();
    drawing.current = { pointerId: event.pointerId, points: [pointOf(event, origin)], origin };
    redraw();
  };

  const onPointerMove = (event: PointerEvent<HTMLCanvasElement>) => {
    const stroke = drawing.current;
    if (!stroke || stroke.pointerId !== event.pointerId) return;
    event.preventDefault();
    const native = event.nativeEvent;
    const moves = typeof native.getCoalescedEvents === 'function' ? native.getCoalescedEvents() : [];
    let moved = false;
    for (const move of moves.length > 0 ? moves : [native]) {
      moved = extendStroke(stroke.points, pointOf(move, stroke.origin)) || moved;
    }
    if (moved) redraw();
  };

  const finish = (event: PointerEvent<HTMLCanvasElement>) => {
    const stroke = drawing.current;
    if (!stroke || stroke.pointerId !== event.pointerId) return;
    drawing.current = null;
    onChange([...latest.current, stroke.points]);
  };

  return (
    <canvas
      ref={canvasRef}
      className="signature-pad"
      role="img"
      aria-label={strokes.length > 0 ? 'Signature pad, signed' : 'Signature pad, empty'}
      data-signed={strokes.length > 0 ? 'true' : 'false'}
      data-disabled={disabled || undefined}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={finish}
      onPointerCancel={finish}
      onLostPointerCapture={finish}
    />
  );
}
