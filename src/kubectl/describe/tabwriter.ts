// Go's text/tabwriter, as kubectl uses it: cells are tab-terminated, a column is as wide as its widest cell in a
// block of consecutive lines that have that column, plus padding; the text after a line's last tab is not part
// of any column. `kubectl describe` uses the standard library's writer (minwidth 0, tabwidth 8, padding 2);
// tables (`kubectl events`, `top`) use cli-runtime's (minwidth 6, tabwidth 4, padding 3) with liggitt/tabwriter's
// RememberWidths, so a watch's later rows never shrink a column.

export interface TabWriterOptions {
  minwidth: number;
  padding: number;
  /** liggitt/tabwriter's RememberWidths: column widths only grow across flushes. */
  rememberWidths?: boolean;
}

interface Cell {
  text: string;
  width: number;
}

/** The settings of describe's tabbedString. */
export const describeTabWriter: TabWriterOptions = { minwidth: 0, padding: 2 };
/** cli-runtime printers.GetNewTabWriter. */
export const tableTabWriter: TabWriterOptions = { minwidth: 6, padding: 3, rememberWidths: true };

/** Go counts runes, not UTF-16 code units. */
function runeCount(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

export class TabWriter {
  private lines: Cell[][] = [[]];
  private cell = '';
  private widths: number[] = [];
  private maxwidths: number[] = [];
  private out = '';

  constructor(private readonly options: TabWriterOptions) {}

  write(text: string): void {
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      const ch = text[i];
      if (ch !== '\t' && ch !== '\n' && ch !== '\v' && ch !== '\f') continue;
      this.cell += text.slice(start, i);
      start = i + 1;
      const ncells = this.terminateCell();
      if (ch === '\n' || ch === '\f') {
        this.lines.push([]);
        // A line of one cell does not affect the lines after it: Go flushes there.
        if (ch === '\f' || ncells === 1) this.flushBuffer();
      }
    }
    this.cell += text.slice(start);
  }

  /** Formats what is buffered and returns everything written so far (then forgets it). */
  flush(): string {
    if (this.cell.length > 0) this.terminateCell();
    this.flushBuffer();
    const out = this.out;
    this.out = '';
    return out;
  }

  private terminateCell(): number {
    const line = this.lines[this.lines.length - 1];
    line.push({ text: this.cell, width: runeCount(this.cell) });
    this.cell = '';
    return line.length;
  }

  private flushBuffer(): void {
    // The trailing (still open) line stays open unless it has content.
    const open = this.lines[this.lines.length - 1];
    const keepOpen = open.length === 0;
    const lines = keepOpen ? this.lines.slice(0, -1) : this.lines;
    this.formatBlock(lines, 0, lines.length, !keepOpen);
    this.lines = [[]];
    this.widths = [];
  }

  private formatBlock(lines: Cell[][], line0: number, line1: number, lastIsOpen: boolean): void {
    const column = this.widths.length;
    for (let current = line0; current < line1; current++) {
      if (column >= lines[current].length - 1) continue;
      this.writeLines(lines, line0, current, lastIsOpen);
      line0 = current;
      let width = this.options.minwidth;
      for (; current < line1; current++) {
        const line = lines[current];
        if (column >= line.length - 1) break;
        width = Math.max(width, line[column].width + this.options.padding);
      }
      if (this.options.rememberWidths) {
        if (this.maxwidths.length < this.widths.length) this.maxwidths.push(...this.widths.slice(this.maxwidths.length));
        if (this.maxwidths.length === this.widths.length) this.maxwidths.push(width);
        else if (this.maxwidths[this.widths.length] > width) width = this.maxwidths[this.widths.length];
        else this.maxwidths[this.widths.length] = width;
      }
      this.widths.push(width);
      this.formatBlock(lines, line0, current, lastIsOpen);
      this.widths.pop();
      line0 = current;
    }
    this.writeLines(lines, line0, line1, lastIsOpen);
  }

  private writeLines(lines: Cell[][], line0: number, line1: number, lastIsOpen: boolean): void {
    for (let i = line0; i < line1; i++) {
      const line = lines[i];
      line.forEach((c, j) => {
        this.out += c.text;
        if (j < this.widths.length) this.out += ' '.repeat(Math.max(0, this.widths[j] - c.width));
      });
      if (!(lastIsOpen && i === lines.length - 1)) this.out += '\n';
    }
  }
}

/** Formats text written with tabs in one go (describe's tabbedString). */
export function tabbed(text: string, options: TabWriterOptions = describeTabWriter): string {
  const w = new TabWriter(options);
  w.write(text);
  return w.flush();
}
