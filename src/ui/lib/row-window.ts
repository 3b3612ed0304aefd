// Which rows of a long table to render: the ones in the scroller's viewport plus some overscan, so a table of
// 1,000 objects keeps ~60 rows in the DOM and a watch batch costs the same at 50 rows as at 5,000.
// Short tables (up to `fullBelow` rows) render whole: nothing to save, and every row stays findable.

export interface RowWindowInput {
  count: number;
  /** The scroller's scrollTop, less the distance from the scroller's content top to the first row. */
  scrollTop: number;
  /** The scroller's visible height; 0 before it was laid out. */
  viewportHeight: number;
  rowHeight: number;
  /** Rows rendered beyond each edge of the viewport. */
  overscan?: number;
  /** Tables with at most this many rows are rendered whole. */
  fullBelow?: number;
}

export interface RowWindow {
  /** First row rendered. */
  start: number;
  /** One past the last row rendered. */
  end: number;
}

export const defaultOverscan = 30;
export const defaultFullBelow = 200;

export function rowWindow({
  count,
  scrollTop,
  viewportHeight,
  rowHeight,
  overscan = defaultOverscan,
  fullBelow = defaultFullBelow,
}: RowWindowInput): RowWindow {
  if (count <= fullBelow || rowHeight <= 0) return { start: 0, end: count };
  // Before the first layout the viewport is unknown: as many rows as a tall screen shows.
  const visible = Math.ceil((viewportHeight > 0 ? viewportHeight : 1200) / rowHeight);
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  // Snap to blocks of overscan rows so small scrolls keep the same window (no re-render per scroll event).
  const step = Math.max(1, overscan);
  const start = Math.max(0, Math.min(count, Math.floor((first - overscan) / step) * step));
  const end = Math.min(count, Math.ceil((first + visible + overscan) / step) * step);
  return { start, end };
}
