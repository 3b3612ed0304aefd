import { describe, expect, it } from 'vitest';
import { defaultFullBelow, defaultOverscan, rowWindow } from './row-window';

describe('rowWindow', () => {
  it('renders a short table whole', () => {
    expect(
      rowWindow({
        count: defaultFullBelow,
        scrollTop: 5000,
        viewportHeight: 300,
        rowHeight: 30,
      }),
    ).toEqual({ start: 0, end: defaultFullBelow });
  });

  it('renders the rows in view plus overscan on each side of a long table, never past its ends', () => {
    const top = rowWindow({
      count: 1000,
      scrollTop: 0,
      viewportHeight: 600,
      rowHeight: 30,
    });
    expect(top.start).toBe(0);
    expect(top.end).toBeGreaterThanOrEqual(20 + defaultOverscan);
    expect(top.end).toBeLessThan(1000);

    const middle = rowWindow({
      count: 1000,
      scrollTop: 15_000,
      viewportHeight: 600,
      rowHeight: 30,
    }); // rows 500–520 in view
    expect(middle.start).toBeLessThanOrEqual(500 - defaultOverscan);
    expect(middle.end).toBeGreaterThanOrEqual(520 + defaultOverscan);
    expect(middle.end - middle.start).toBeLessThan(20 + 4 * defaultOverscan);

    const bottom = rowWindow({
      count: 1000,
      scrollTop: 1000 * 30 - 600,
      viewportHeight: 600,
      rowHeight: 30,
    });
    expect(bottom.end).toBe(1000);
    expect(bottom.start).toBeLessThanOrEqual(980 - defaultOverscan);
  });

  it('keeps the same window over small scrolls (no render per scroll event)', () => {
    const windows = new Set<string>();
    for (let y = 15_000; y < 15_000 + 10 * 30; y += 7) {
      const w = rowWindow({
        count: 1000,
        scrollTop: y,
        viewportHeight: 600,
        rowHeight: 30,
      });
      windows.add(`${w.start}-${w.end}`);
    }
    expect(windows.size).toBeLessThanOrEqual(2);
  });

  it('assumes a tall viewport before the scroller was laid out', () => {
    const w = rowWindow({
      count: 1000,
      scrollTop: 0,
      viewportHeight: 0,
      rowHeight: 30,
    });
    expect(w.end).toBeGreaterThanOrEqual(1200 / 30);
  });
});
