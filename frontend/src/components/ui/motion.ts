import type { CSSProperties } from 'react';

export type MotionKind = 'fade' | 'slide' | 'scale';

/** Entrance animation props (0.3 s, after `delayMs`); CSS turns them off under
 * prefers-reduced-motion. Hover motion is the `hover-lift` class. */
export function motion(kind: MotionKind, delayMs = 0, className = ''): { className: string; style?: CSSProperties } {
  return {
    className: `${className} motion-${kind}`.trim(),
    style: delayMs ? ({ '--motion-delay': `${delayMs}ms` } as CSSProperties) : undefined,
  };
}
