import { describe, expect, it } from 'vitest';
import { LineWriter, TabWriter, newTabWriter } from './tabwriter';

function layout(write: (w: TabWriter) => void, w?: (out: (t: string) => void) => TabWriter): string {
  let out = '';
  const tw = (w ?? newTabWriter)((t) => (out += t));
  write(tw);
  tw.flush();
  return out;
}

describe('TabWriter (kubectl: minwidth 6, tabwidth 4, padding 3, RememberWidths)', () => {
  it('pads each column to its widest cell plus 3, at least 6, and never pads the last cell', () => {
    expect(layout((w) => w.write('NAME\tREADY\tAGE\nweb-0\t1/1\t5m\nlonger-name\t0/1\t10s\n'))).toBe(
      'NAME          READY   AGE\nweb-0         1/1     5m\nlonger-name   0/1     10s\n',
    );
  });

  it('keeps minwidth for narrow columns and pads empty cells', () => {
    expect(layout((w) => w.write('A\tB\tC\n\t\tz\n'))).toBe('A     B     C\n            z\n');
  });

  it('flushes at a one-cell line; the lines after it keep the remembered widths and grow them', () => {
    expect(layout((w) => w.write('a\tbbbbbbbb\tc\nx\nlong-first-cell\ty\tz\n'))).toBe('a     bbbbbbbb   c\nx\nlong-first-cell   y          z\n');
  });

  it('aligns a column only over the consecutive lines that have it', () => {
    // The two-cell line in the middle has no second column: the block of column 2 ends there.
    const plain = (out: (t: string) => void) => new TabWriter(out, { rememberWidths: false });
    expect(layout((w) => w.write('a\tbbbbbbbb\tc\nxx\tyy\nlonger-cell\ty\tz\n'), plain)).toBe('a             bbbbbbbb   c\nxx            yy\nlonger-cell   y     z\n');
  });

  it('remembers widths across flushes (a watch keeps its rows aligned), until they are reset', () => {
    let out = '';
    const w = newTabWriter((t) => (out += t));
    w.write('NAME\tSTATUS\tAGE\nweb\tRunning\t1s\n');
    w.flush();
    w.write('x\tPending\t0s\n');
    w.flush();
    w.write('a-much-longer-name\tOK\t0s\n');
    w.flush();
    w.write('y\tOK\t0s\n');
    w.flush();
    expect(out).toBe(
      'NAME   STATUS    AGE\nweb    Running   1s\nx      Pending   0s\na-much-longer-name   OK        0s\ny                    OK        0s\n',
    );
    w.setRememberedWidths(null);
    out = '';
    w.write('y\tOK\t0s\n');
    w.flush();
    expect(out).toBe('y     OK    0s\n');
  });

  it('without RememberWidths every flush measures again', () => {
    const plain = (out: (t: string) => void) => new TabWriter(out, { rememberWidths: false });
    let out = '';
    const w = plain((t) => (out += t));
    w.write('a-long-cell\tb\n');
    w.flush();
    w.write('c\td\n');
    w.flush();
    expect(out).toBe('a-long-cell   b\nc     d\n');
    expect(layout((tw) => tw.write('x\ty\n'), plain)).toBe('x     y\n');
  });

  it('counts runes, not UTF-16 units, and leaves an unterminated last line as typed', () => {
    expect(layout((w) => w.write('héllo\tx\nab\ty'))).toBe('héllo   x\nab      y');
  });
});

describe('LineWriter', () => {
  it('emits whole lines, keeps a partial one until close, and counts what was written', () => {
    const lines: string[] = [];
    const w = new LineWriter((l) => lines.push(l));
    w.write('a\nb');
    expect(lines).toEqual(['a']);
    w.write('c\n\nd');
    expect(lines).toEqual(['a', 'bc', '']);
    w.close();
    expect(lines).toEqual(['a', 'bc', '', 'd']);
    expect(w.written).toBe(7);
  });
});
