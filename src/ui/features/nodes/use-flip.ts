// FLIP for a list of chips: when a render moves a child (a pod inserted before it, a ghost gone), it glides from
// where it was instead of jumping. Children opt in with data-flip-key; positions are relative to the list, so a
// card that moves as a whole does not animate its chips.
import type { RefObject } from 'react';
import { useLayoutEffect, useRef } from 'react';
import { prefersReducedMotion } from '../../lib/token-motion';

const flipMs = 250;
/**
 * Above this many chips a list does not glide: measuring every chip forces a layout on each render, which at
 * hundreds of pods per node costs more than a frame, and so many moving chips tell nothing anyway.
 */
export const flipLimit = 60;

export function useFlip(list: RefObject<HTMLElement | null>): void {
  const last = useRef(new Map<string, { x: number; y: number }>());
  useLayoutEffect(() => {
    const root = list.current;
    if (!root) return;
    if (root.childElementCount > flipLimit) {
      last.current.clear();
      return;
    }
    const origin = root.getBoundingClientRect();
    const next = new Map<string, { x: number; y: number }>();
    const animate = !prefersReducedMotion();
    for (const el of root.querySelectorAll<HTMLElement>('[data-flip-key]')) {
      const key = el.dataset.flipKey!;
      const r = el.getBoundingClientRect();
      const at = { x: r.left - origin.left, y: r.top - origin.top };
      next.set(key, at);
      const before = last.current.get(key);
      if (!animate || !before || typeof el.animate !== 'function') continue;
      const dx = before.x - at.x;
      const dy = before.y - at.y;
      if (Math.abs(dx) < 0.5 && Math.abs(dy) < 0.5) continue;
      el.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: 'none' }], { duration: flipMs, easing: 'ease-out' });
    }
    last.current = next;
  });
}
