// How a token travels along a route on a graph, shared by the Control plane view's request tokens and the Objects
// view's traffic tokens: route geometry, the Web Animations keyframes, and the user's reduced-motion preference.

export interface Point {
  x: number;
  y: number;
}

export function routeLength(points: readonly Point[]): number {
  let n = 0;
  for (let i = 1; i < points.length; i++) n += Math.hypot(points[i].x - points[i - 1].x, points[i].y - points[i - 1].y);
  return n;
}

/**
 * The token's journey as Web Animations keyframes: a translate to each corner of its route at the share of the
 * length travelled, fading in at the start and out at the end (a parked refusal stays). `holdShare` is the part
 * of the animation it rests at its end before fading. Transform and opacity only, so the browser moves tokens on
 * the compositor. Reduced motion: the token shows at its end, then fades.
 */
export function tokenKeyframes(points: readonly Point[], parked: boolean, reducedMotion: boolean, holdShare = 0): Keyframe[] {
  const at = (p: Point) => `translate(${Math.round(p.x * 10) / 10}px, ${Math.round(p.y * 10) / 10}px) translate(-50%, -50%)`;
  const end = points[points.length - 1] ?? { x: 0, y: 0 };
  if (reducedMotion) {
    return parked
      ? [{ offset: 0, transform: at(end), opacity: 0 }, { offset: 1, transform: at(end), opacity: 1 }]
      : [{ offset: 0, transform: at(end), opacity: 0 }, { offset: 0.2, opacity: 1 }, { offset: 0.8, opacity: 1 }, { offset: 1, transform: at(end), opacity: 0 }];
  }
  const travel = 1 - holdShare;
  const total = routeLength(points) || 1;
  const frames: Keyframe[] = [];
  let travelled = 0;
  points.forEach((p, i) => {
    if (i > 0) travelled += Math.hypot(p.x - points[i - 1].x, p.y - points[i - 1].y);
    frames.push({ offset: Math.min(1, travelled / total) * travel, transform: at(p) });
  });
  if (holdShare > 0) frames.push({ offset: 1, transform: at(end) });
  frames[0].opacity = 0;
  frames[frames.length - 1].opacity = parked ? 1 : 0;
  // Fully visible for the journey between: opacity keyframes of their own, placed between the corners.
  const visible = [0.06 * travel, holdShare > 0 ? 0.97 : 0.92].map((offset) => ({ offset, opacity: 1 }));
  return [...frames, ...visible].sort((a, b) => (a.offset as number) - (b.offset as number));
}

/** Whether the user asked the system for reduced motion. */
export function prefersReducedMotion(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}
