// React binding of row-window.ts: follows a scroller's scroll position and height and re-renders only when the
// window of rows moves to another block (not on every scroll event).
import { useEffect, useLayoutEffect, useReducer, useRef, useState } from 'react';
import type { RefObject } from 'react';
import type { RowWindow } from './row-window';
import { rowWindow } from './row-window';

/** A row's height before one was measured (a table row with a small button). */
const assumedRowHeight = 30;

export interface RowWindowView extends RowWindow {
  /** Height of the rows above and below the window, for the spacer rows that keep the scrollbar true. */
  above: number;
  below: number;
}

/**
 * `scroller` scrolls the table; `firstRow` is the first rendered data row, measured once for the row height.
 * The header above the rows is not subtracted from scrollTop: the overscan covers it.
 */
export function useRowWindow(
  count: number,
  scroller: RefObject<HTMLElement | null>,
  firstRow: RefObject<HTMLElement | null>,
  options: { overscan?: number; fullBelow?: number } = {},
): RowWindowView {
  const { overscan, fullBelow } = options;
  const [rowHeight, setRowHeight] = useState(assumedRowHeight);
  // The latest scroll position and height, read on scroll; a render happens only when the window moves.
  const view = useRef({ scrollTop: 0, height: 0 });
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const win = rowWindow({
    count,
    scrollTop: view.current.scrollTop,
    viewportHeight: view.current.height,
    rowHeight,
    overscan,
    fullBelow,
  });
  const current = useRef({ count, rowHeight, win, overscan, fullBelow });
  current.current = { count, rowHeight, win, overscan, fullBelow };

  // Measured once rows exist (a layout read, but once, not per update).
  const measured = count > 0;
  useLayoutEffect(() => {
    const h = firstRow.current?.getBoundingClientRect().height;
    if (h && Math.abs(h - rowHeight) > 0.5) setRowHeight(h);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [measured]);

  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    let frame = 0;
    const read = () => {
      frame = 0;
      view.current = { scrollTop: el.scrollTop, height: el.clientHeight };
      const { count: n, rowHeight: h, win: shown, overscan: o, fullBelow: f } = current.current;
      const next = rowWindow({
        count: n,
        scrollTop: view.current.scrollTop,
        viewportHeight: view.current.height,
        rowHeight: h,
        overscan: o,
        fullBelow: f,
      });
      if (next.start !== shown.start || next.end !== shown.end) rerender();
    };
    // At most one read per frame, in the frame's own time.
    const onScroll = () => {
      if (!frame) frame = requestAnimationFrame(read);
    };
    el.addEventListener('scroll', onScroll, { passive: true });
    const resize = typeof ResizeObserver === 'function' ? new ResizeObserver(onScroll) : undefined;
    resize?.observe(el);
    onScroll();
    return () => {
      el.removeEventListener('scroll', onScroll);
      resize?.disconnect();
      if (frame) cancelAnimationFrame(frame);
    };
  }, [scroller]);

  return {
    ...win,
    above: win.start * rowHeight,
    below: (count - win.end) * rowHeight,
  };
}
