// The elastic tabstop writer kubectl lays its tables out with (github.com/liggitt/tabwriter, a fork of Go's
// text/tabwriter with RememberWidths), configured as cli-runtime's GetNewTabWriter: minwidth 6, tabwidth 4,
// padding 3, pad with spaces, RememberWidths.
//
//   const w = newTabWriter((text) => out.write(text));
//   w.write('NAME\tREADY\n'); w.write('web-0\t1/1\n'); w.flush();
//   // "NAME    READY\nweb-0   1/1\n"
//
// Cells are tab-terminated; a line's last cell is not part of any column (it is never padded). A column's width
// is its widest cell plus the padding, at least minwidth, over a block of consecutive lines that have that
// column. With RememberWidths a column never gets narrower across flushes (kubectl get -w keeps rows aligned).
// A line with a single cell (an empty line, say) flushes what came before.

interface Cell {
  /** Width in runes (code points), as Go's utf8.RuneCount. */
  width: number;
  text: string;
  /** Whether the cell was terminated by a tab. */
  htab: boolean;
}

export interface TabWriterOptions {
  minwidth?: number;
  tabwidth?: number;
  padding?: number;
  padchar?: string;
  rememberWidths?: boolean;
}

export class TabWriter {
  private readonly minwidth: number;
  private readonly padding: number;
  private readonly padchar: string;
  private readonly rememberWidths: boolean;

  private lines: Cell[][] = [[]];
  private cell = '';
  private widths: number[] = [];
  private maxwidths: number[] = [];

  constructor(
    private readonly output: (text: string) => void,
    options: TabWriterOptions = {},
  ) {
    this.minwidth = options.minwidth ?? 6;
    this.padding = options.padding ?? 3;
    this.padchar = options.padchar ?? ' ';
    this.rememberWidths = options.rememberWidths ?? true;
  }

  /** Buffers text; '\t' ends a cell, '\n' a line ('\v' and '\f' as Go treats them). */
  write(text: string): void {
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      const ch = text[i];
      if (ch !== '\t' && ch !== '\v' && ch !== '\n' && ch !== '\f') continue;
      this.cell += text.slice(start, i);
      start = i + 1;
      const ncells = this.terminateCell(ch === '\t');
      if (ch === '\n' || ch === '\f') {
        this.lines.push([]);
        if (ch === '\f' || ncells === 1) this.flush();
      }
    }
    this.cell += text.slice(start);
  }

  /** Formats and writes everything buffered (the last line without a newline stays as typed). */
  flush(): void {
    if (this.cell.length > 0) this.terminateCell(false);
    this.format(0, this.lines.length);
    this.reset();
  }

  /** The remembered column widths (kubectl resets them between resource types). */
  rememberedWidths(): number[] {
    return [...this.maxwidths];
  }

  setRememberedWidths(widths: number[] | null): void {
    this.maxwidths = widths ? [...widths] : [];
  }

  private reset(): void {
    this.cell = '';
    this.lines = [[]];
    this.widths = [];
  }

  private terminateCell(htab: boolean): number {
    const line = this.lines[this.lines.length - 1];
    line.push({ text: this.cell, width: [...this.cell].length, htab });
    this.cell = '';
    return line.length;
  }

  private format(line0: number, line1: number): void {
    const column = this.widths.length;
    for (let thisLine = line0; thisLine < line1; thisLine++) {
      let line = this.lines[thisLine];
      if (column >= line.length - 1) continue;
      // Cell exists in this column: lines before it are written with the widths known so far.
      this.writeLines(line0, thisLine);
      line0 = thisLine;

      let width = this.minwidth;
      for (; thisLine < line1; thisLine++) {
        line = this.lines[thisLine];
        if (column >= line.length - 1) break;
        const w = line[column].width + this.padding;
        if (w > width) width = w;
      }

      if (this.rememberWidths) {
        if (this.maxwidths.length < this.widths.length) this.maxwidths.push(...this.widths.slice(this.maxwidths.length));
        if (this.maxwidths.length === this.widths.length) this.maxwidths.push(width);
        else if (this.maxwidths[this.widths.length] > width) width = this.maxwidths[this.widths.length];
        else if (this.maxwidths[this.widths.length] < width) this.maxwidths[this.widths.length] = width;
      }

      this.widths.push(width);
      this.format(line0, thisLine);
      this.widths.pop();
      line0 = thisLine;
    }
    this.writeLines(line0, line1);
  }

  private writeLines(line0: number, line1: number): void {
    let out = '';
    for (let i = line0; i < line1; i++) {
      const line = this.lines[i];
      line.forEach((c, j) => {
        out += c.text;
        if (j < this.widths.length) out += this.padchar.repeat(Math.max(0, this.widths[j] - c.width));
      });
      // The buffer always ends with an (empty or partial) line: the last one is not newline-terminated.
      if (i + 1 < this.lines.length) out += '\n';
    }
    if (out) this.output(out);
  }
}

/** cli-runtime's GetNewTabWriter. */
export function newTabWriter(output: (text: string) => void): TabWriter {
  return new TabWriter(output, { minwidth: 6, tabwidth: 4, padding: 3, padchar: ' ', rememberWidths: true });
}

/**
 * Turns a text stream into lines for CommandIO (one call per line, without the newline). A partial last line is
 * kept until more text completes it, or close() emits it.
 */
export class LineWriter {
  private pending = '';
  /** Bytes written so far (kubectl's trackingWriter: whether anything was printed). */
  written = 0;

  constructor(private readonly emit: (line: string) => void) {}

  write(text: string): void {
    if (!text) return;
    this.written += text.length;
    const parts = (this.pending + text).split('\n');
    this.pending = parts.pop()!;
    for (const line of parts) this.emit(line);
  }

  /** Emits a partial last line (text printed without a final newline, e.g. -o jsonpath). */
  close(): void {
    if (this.pending) this.emit(this.pending);
    this.pending = '';
  }
}
