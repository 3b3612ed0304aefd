// A small POSIX sh parser for container commands ("sh -c 'touch /tmp/healthy; sleep 30; rm -f /tmp/healthy'"):
// words with quotes, escapes, $VAR / ${VAR} / $(…) kept for expansion, the operators ; && || | & and newlines,
// redirections, and the compound commands while/until/for/if and { …; } / ( … ). What it cannot parse it
// reports as a syntax error, the way sh would ("sh: syntax error: unexpected …").

/** A word as written: parts that are literal (quoted) or expandable. */
export interface Word {
  parts: WordPart[];
  /** The source text, for messages. */
  raw: string;
}

export type WordPart =
  | { type: 'literal'; text: string }
  /** Unquoted or double-quoted text in which $VAR, ${VAR} and $(…) expand. */
  | { type: 'expand'; text: string; quoted: boolean };

export interface Redirect {
  op: '>' | '>>' | '<' | '2>' | '2>>' | '&>' | '2>&1' | '>&2';
  target?: Word;
}

export type Command =
  | { type: 'simple'; words: Word[]; redirects: Redirect[] }
  | { type: 'while'; until: boolean; cond: List; body: List; redirects: Redirect[] }
  | { type: 'for'; variable: string; items: Word[] | undefined; body: List; redirects: Redirect[] }
  | { type: 'if'; clauses: { cond: List; body: List }[]; elseBody?: List; redirects: Redirect[] }
  | { type: 'group'; list: List; subshell: boolean; redirects: Redirect[] };

export interface Pipeline {
  commands: Command[];
  negate: boolean;
}

export interface AndOr {
  first: Pipeline;
  rest: { op: '&&' | '||'; pipeline: Pipeline }[];
}

export interface List {
  items: { andOr: AndOr; background: boolean }[];
}

export class ShellSyntaxError extends Error {}

type Token = { type: 'word'; word: Word } | { type: 'op'; value: string };

const operators = ['&&', '||', ';;', '2>>', '2>&1', '>&2', '&>', '2>', '>>', ';', '&', '|', '(', ')', '<', '>', '\n'];

function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (c === ' ' || c === '\t' || c === '\r') {
      i++;
      continue;
    }
    if (c === '\\' && src[i + 1] === '\n') {
      i += 2;
      continue;
    }
    if (c === '#') {
      while (i < src.length && src[i] !== '\n') i++;
      continue;
    }
    // "2>" only counts as an operator when the 2 stands alone.
    const op = operators.find((o) => src.startsWith(o, i) && (!o.startsWith('2') || i === 0 || /[\s;&|]/.test(src[i - 1])));
    if (op) {
      tokens.push({ type: 'op', value: op });
      i += op.length;
      continue;
    }
    const start = i;
    const parts: WordPart[] = [];
    let plain = '';
    const flushPlain = () => {
      if (plain) parts.push({ type: 'expand', text: plain, quoted: false });
      plain = '';
    };
    while (i < src.length) {
      const ch = src[i];
      if (/[\s;&|()<>]/.test(ch) && ch !== undefined) {
        // ">" inside a word ends it, except "$(" groups which are consumed below.
        break;
      }
      if (ch === "'") {
        flushPlain();
        const end = src.indexOf("'", i + 1);
        if (end < 0) throw new ShellSyntaxError("unterminated quoted string");
        parts.push({ type: 'literal', text: src.slice(i + 1, end) });
        i = end + 1;
        continue;
      }
      if (ch === '"') {
        flushPlain();
        let j = i + 1;
        let text = '';
        while (j < src.length && src[j] !== '"') {
          if (src[j] === '\\' && j + 1 < src.length && '"\\$`\n'.includes(src[j + 1])) {
            text += src[j + 1] === '$' ? '\\$' : src[j + 1] === '\n' ? '' : src[j + 1];
            j += 2;
            continue;
          }
          if (src[j] === '$' && src[j + 1] === '(') {
            const end = matchParen(src, j + 1);
            text += src.slice(j, end + 1);
            j = end + 1;
            continue;
          }
          text += src[j];
          j++;
        }
        if (j >= src.length) throw new ShellSyntaxError('unterminated quoted string');
        parts.push({ type: 'expand', text, quoted: true });
        i = j + 1;
        continue;
      }
      if (ch === '\\' && i + 1 < src.length) {
        flushPlain();
        parts.push({ type: 'literal', text: src[i + 1] });
        i += 2;
        continue;
      }
      if (ch === '$' && src[i + 1] === '(') {
        const end = matchParen(src, i + 1);
        plain += src.slice(i, end + 1);
        i = end + 1;
        continue;
      }
      plain += ch;
      i++;
    }
    flushPlain();
    tokens.push({ type: 'word', word: { parts, raw: src.slice(start, i) } });
  }
  return tokens;
}

/** Index of the ")" that closes the "(" at open (nested, quote-aware). */
function matchParen(src: string, open: number): number {
  let depth = 0;
  for (let j = open; j < src.length; j++) {
    const ch = src[j];
    if (ch === "'") {
      const end = src.indexOf("'", j + 1);
      if (end < 0) break;
      j = end;
      continue;
    }
    if (ch === '(') depth++;
    else if (ch === ')') {
      depth--;
      if (depth === 0) return j;
    }
  }
  throw new ShellSyntaxError('unterminated $(');
}

const reserved = new Set(['do', 'done', 'then', 'fi', 'elif', 'else', 'esac', '}']);

class Parser {
  private pos = 0;
  constructor(private readonly tokens: Token[]) {}

  private peek(): Token | undefined {
    return this.tokens[this.pos];
  }

  private peekWord(): string | undefined {
    const t = this.peek();
    return t?.type === 'word' && t.word.parts.length === 1 && t.word.parts[0].type === 'expand' && !t.word.parts[0].quoted ? t.word.raw : undefined;
  }

  private isOp(value: string): boolean {
    const t = this.peek();
    return t?.type === 'op' && t.value === value;
  }

  private skipNewlines(): void {
    while (this.isOp('\n')) this.pos++;
  }

  private unexpected(): ShellSyntaxError {
    const t = this.peek();
    const what = !t ? 'end of file' : t.type === 'op' ? (t.value === '\n' ? 'newline' : `"${t.value}"`) : `"${t.word.raw}"`;
    return new ShellSyntaxError(`syntax error: unexpected ${what}`);
  }

  private expectWord(value: string): void {
    this.skipNewlines();
    if (this.peekWord() !== value) throw this.unexpected();
    this.pos++;
  }

  parseScript(): List {
    const list = this.parseList(new Set());
    this.skipNewlines();
    if (this.pos < this.tokens.length) throw this.unexpected();
    return list;
  }

  /** A list up to one of the terminator words (or a closing parenthesis / end). */
  private parseList(terminators: Set<string>): List {
    const items: List['items'] = [];
    for (;;) {
      while (this.isOp('\n') || this.isOp(';')) this.pos++;
      const t = this.peek();
      if (!t || this.isOp(')')) break;
      const w = this.peekWord();
      if (w !== undefined && terminators.has(w)) break;
      const andOr = this.parseAndOr();
      let background = false;
      if (this.isOp('&')) {
        background = true;
        this.pos++;
      } else if (this.isOp(';') || this.isOp('\n')) {
        this.pos++;
      } else if (this.peek() && !this.isOp(')')) {
        const next = this.peekWord();
        if (next === undefined || !terminators.has(next)) throw this.unexpected();
      }
      items.push({ andOr, background });
    }
    return { items };
  }

  private parseAndOr(): AndOr {
    const first = this.parsePipeline();
    const rest: AndOr['rest'] = [];
    while (this.isOp('&&') || this.isOp('||')) {
      const op = (this.peek() as { value: '&&' | '||' }).value;
      this.pos++;
      this.skipNewlines();
      rest.push({ op, pipeline: this.parsePipeline() });
    }
    return { first, rest };
  }

  private parsePipeline(): Pipeline {
    let negate = false;
    if (this.peekWord() === '!') {
      negate = true;
      this.pos++;
    }
    const commands = [this.parseCommand()];
    while (this.isOp('|')) {
      this.pos++;
      this.skipNewlines();
      commands.push(this.parseCommand());
    }
    return { commands, negate };
  }

  private parseRedirects(): Redirect[] {
    const out: Redirect[] = [];
    for (;;) {
      const t = this.peek();
      if (t?.type !== 'op') return out;
      if (t.value === '2>&1' || t.value === '>&2') {
        out.push({ op: t.value });
        this.pos++;
        continue;
      }
      if (!['>', '>>', '<', '2>', '2>>', '&>'].includes(t.value)) return out;
      this.pos++;
      const target = this.peek();
      if (target?.type !== 'word') throw this.unexpected();
      this.pos++;
      out.push({ op: t.value as Redirect['op'], target: target.word });
    }
  }

  private parseCommand(): Command {
    const w = this.peekWord();
    if (w === 'while' || w === 'until') {
      this.pos++;
      const cond = this.parseList(new Set(['do']));
      this.expectWord('do');
      const body = this.parseList(new Set(['done']));
      this.expectWord('done');
      return { type: 'while', until: w === 'until', cond, body, redirects: this.parseRedirects() };
    }
    if (w === 'for') {
      this.pos++;
      const v = this.peekWord();
      if (!v) throw this.unexpected();
      this.pos++;
      let items: Word[] | undefined;
      if (this.peekWord() === 'in') {
        this.pos++;
        items = [];
        while (this.peek()?.type === 'word') items.push((this.tokens[this.pos++] as { word: Word }).word);
      }
      while (this.isOp(';') || this.isOp('\n')) this.pos++;
      this.expectWord('do');
      const body = this.parseList(new Set(['done']));
      this.expectWord('done');
      return { type: 'for', variable: v, items, body, redirects: this.parseRedirects() };
    }
    if (w === 'if') {
      this.pos++;
      const clauses: { cond: List; body: List }[] = [];
      let elseBody: List | undefined;
      const cond = this.parseList(new Set(['then']));
      this.expectWord('then');
      clauses.push({ cond, body: this.parseList(new Set(['elif', 'else', 'fi'])) });
      for (;;) {
        this.skipNewlines();
        const k = this.peekWord();
        if (k === 'elif') {
          this.pos++;
          const c = this.parseList(new Set(['then']));
          this.expectWord('then');
          clauses.push({ cond: c, body: this.parseList(new Set(['elif', 'else', 'fi'])) });
        } else if (k === 'else') {
          this.pos++;
          elseBody = this.parseList(new Set(['fi']));
        } else break;
      }
      this.expectWord('fi');
      return { type: 'if', clauses, elseBody, redirects: this.parseRedirects() };
    }
    if (w === '{') {
      this.pos++;
      const list = this.parseList(new Set(['}']));
      this.expectWord('}');
      return { type: 'group', list, subshell: false, redirects: this.parseRedirects() };
    }
    if (this.isOp('(')) {
      this.pos++;
      const list = this.parseList(new Set());
      if (!this.isOp(')')) throw this.unexpected();
      this.pos++;
      return { type: 'group', list, subshell: true, redirects: this.parseRedirects() };
    }
    if (w !== undefined && reserved.has(w)) throw this.unexpected();
    const words: Word[] = [];
    const redirects: Redirect[] = [];
    for (;;) {
      const t = this.peek();
      if (t?.type === 'word') {
        words.push(t.word);
        this.pos++;
        continue;
      }
      const r = this.parseRedirects();
      if (r.length === 0) break;
      redirects.push(...r);
    }
    if (words.length === 0 && redirects.length === 0) throw this.unexpected();
    return { type: 'simple', words, redirects };
  }
}

/** Parses a script as `sh -c` receives it. Throws ShellSyntaxError. */
export function parseScript(src: string): List {
  return new Parser(tokenize(src)).parseScript();
}

/** A list of one simple command made of argv (an exec-form command: no shell parsing). */
export function argvCommand(argv: readonly string[]): List {
  const words = argv.map((a) => ({ parts: [{ type: 'literal' as const, text: a }], raw: a }));
  return { items: [{ andOr: { first: { commands: [{ type: 'simple', words, redirects: [] }], negate: false }, rest: [] }, background: false }] };
}
