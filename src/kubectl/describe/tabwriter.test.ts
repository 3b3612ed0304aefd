import { describe, expect, it } from 'vitest';
import { TabWriter, tabbed, tableTabWriter } from './tabwriter';

describe('TabWriter (Go text/tabwriter)', () => {
  it('aligns a column within a block of consecutive lines that have it, padding 2 (describe)', () => {
    expect(tabbed('Name:\tnginx\nNamespace:\tdefault\n')).toBe('Name:       nginx\nNamespace:  default\n');
  });

  it('a line without a tab ends the block: the lines after it align on their own', () => {
    expect(tabbed('A:\t1\nLonger key:\t2\nSection:\n  k:\tv\n')).toBe('A:           1\nLonger key:  2\nSection:\n  k:  v\n');
  });

  it('the text after the last tab of a line is not a column (no trailing padding)', () => {
    expect(tabbed('a\tb\tc\nlonger\tb\n')).toBe('a       b  c\nlonger  b\n');
  });

  it('nested columns form their own blocks (a column ends where a line has fewer cells)', () => {
    expect(tabbed('x\ty\tz\nxx\tyyyy\tz\nxxx\tq\n')).toBe('x    y     z\nxx   yyyy  z\nxxx  q\n');
  });

  it('an empty leading cell keeps its column (multi-line labels)', () => {
    expect(tabbed('Labels:\tapp=nginx\n\tpod-template-hash=abc\nAnnotations:\t<none>\n')).toBe('Labels:       app=nginx\n              pod-template-hash=abc\nAnnotations:  <none>\n');
  });

  it('counts runes, not UTF-16 units', () => {
    expect(tabbed('é\tx\nab\tx\n')).toBe('é   x\nab  x\n');
  });

  it('tables (minwidth 6, padding 3) pad every tab-terminated cell, the last one too', () => {
    const w = new TabWriter(tableTabWriter);
    w.write('NAME\tCPU\t\nn1\t5m\t\n');
    expect(w.flush()).toBe('NAME   CPU   \nn1     5m    \n');
  });

  it('RememberWidths: a later flush never narrows a column', () => {
    const w = new TabWriter(tableTabWriter);
    w.write('LAST SEEN\tTYPE\n');
    w.write('10s\tNormal\n');
    expect(w.flush()).toBe('LAST SEEN   TYPE\n10s         Normal\n');
    w.write('5s\tWarning\n');
    expect(w.flush()).toBe('5s          Warning\n');
  });

  it('text without a final newline stays on its line', () => {
    expect(tabbed('a\tb')).toBe('a  b');
  });
});
