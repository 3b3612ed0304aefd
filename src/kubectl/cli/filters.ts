// The few text filters people pipe kubectl into in tutorials — `| grep web`, `| head -5`, `| tail -n 2`,
// `| wc -l` — so a copied command line runs here too. Each takes stdout line by line (grep and head as it
// streams, tail and wc at the end) and has its program's exit status (grep: 1 when nothing matched).

export interface LineFilter {
  line(text: string): void;
  /** Input ended: prints what was held back; the filter's exit status. */
  end(): number;
}

/** The programs a kubectl pipeline may end in. */
export const filterPrograms: ReadonlySet<string> = new Set(['grep', 'egrep', 'head', 'tail', 'wc', 'cat']);

export type FilterResult = { ok: true; filter: LineFilter } | { ok: false; error: string; exitCode: number };

export function createFilter(argv: readonly string[], out: (text: string) => void): FilterResult {
  switch (argv[0]) {
    case 'grep':
    case 'egrep':
      return grep(argv, out);
    case 'head':
    case 'tail':
      return headOrTail(argv, out);
    case 'wc':
      return wc(argv, out);
    case 'cat':
      if (argv.length === 1) return { ok: true, filter: { line: out, end: () => 0 } };
      return { ok: false, error: `cat: ${argv[1]}: No such file or directory`, exitCode: 1 };
    default:
      return { ok: false, error: `bash: ${argv[0]}: command not found`, exitCode: 127 };
  }
}

/** GNU grep's basic regular expressions in JavaScript syntax: \| \+ \? \( \) \{ \} are the operators. */
function basicToJs(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\' && i + 1 < pattern.length) {
      const next = pattern[++i];
      out += '|+?(){}'.includes(next) ? next : `\\${next}`;
    } else {
      out += '|+?(){}'.includes(c) ? `\\${c}` : c;
    }
  }
  return out;
}

function grep(argv: readonly string[], out: (text: string) => void): FilterResult {
  let ignoreCase = false;
  let invert = false;
  let count = false;
  let word = false;
  let extended = argv[0] === 'egrep';
  let fixed = false;
  const patterns: string[] = [];
  const args = argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '-e') {
      patterns.push(args[++i] ?? '');
    } else if (a.startsWith('-') && a.length > 1 && patterns.length === 0 && !a.startsWith('--')) {
      for (const flag of a.slice(1)) {
        if (flag === 'i') ignoreCase = true;
        else if (flag === 'v') invert = true;
        else if (flag === 'c') count = true;
        else if (flag === 'w') word = true;
        else if (flag === 'E') extended = true;
        else if (flag === 'F') fixed = true;
        else return { ok: false, error: `grep: invalid option -- '${flag}'`, exitCode: 2 };
      }
    } else if (patterns.length === 0) {
      patterns.push(a);
    } else {
      return { ok: false, error: `grep: ${a}: No such file or directory`, exitCode: 2 };
    }
  }
  if (patterns.length === 0) return { ok: false, error: "Usage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.", exitCode: 2 };
  let regex: RegExp;
  try {
    const sources = patterns.map((p) => (fixed ? p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : extended ? p : basicToJs(p)));
    const body = sources.map((s) => (word ? `(?<![\\w])(?:${s})(?![\\w])` : `(?:${s})`)).join('|');
    regex = new RegExp(body, ignoreCase ? 'i' : '');
  } catch {
    return { ok: false, error: 'grep: Invalid regular expression', exitCode: 2 };
  }
  let matched = 0;
  return {
    ok: true,
    filter: {
      line(text) {
        if (regex.test(text) === invert) return;
        matched++;
        if (!count) out(text);
      },
      end() {
        if (count) out(String(matched));
        return matched > 0 ? 0 : 1;
      },
    },
  };
}

function lineCount(args: readonly string[], program: string): number | { error: string } {
  let n = 10;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    let value: string | undefined;
    if (a === '-n') value = args[++i];
    else if (a.startsWith('-n')) value = a.slice(2);
    else if (/^-\d+$/.test(a)) value = a.slice(1);
    else if (a === '-f' && program === 'tail') continue;
    else return { error: a.startsWith('-') ? `${program}: invalid option -- '${a.slice(1)}'` : `${program}: cannot open '${a}' for reading: No such file or directory` };
    if (value === undefined || !/^\d+$/.test(value)) return { error: `${program}: invalid number of lines: ‘${value ?? ''}’` };
    n = Number(value);
  }
  return n;
}

function headOrTail(argv: readonly string[], out: (text: string) => void): FilterResult {
  const program = argv[0];
  const n = lineCount(argv.slice(1), program);
  if (typeof n !== 'number') return { ok: false, error: n.error, exitCode: 1 };
  let seen = 0;
  const kept: string[] = [];
  return {
    ok: true,
    filter: {
      line(text) {
        if (program === 'head') {
          if (seen++ < n) out(text);
          return;
        }
        kept.push(text);
        if (kept.length > n) kept.shift();
      },
      end() {
        for (const text of kept) out(text);
        return 0;
      },
    },
  };
}

function wc(argv: readonly string[], out: (text: string) => void): FilterResult {
  const wanted = new Set<string>();
  for (const a of argv.slice(1)) {
    if (!/^-[lwc]+$/.test(a)) return { ok: false, error: a.startsWith('-') ? `wc: invalid option -- '${a.slice(1)}'` : `wc: ${a}: No such file or directory`, exitCode: 1 };
    for (const f of a.slice(1)) wanted.add(f);
  }
  if (wanted.size === 0) ['l', 'w', 'c'].forEach((f) => wanted.add(f));
  let lines = 0;
  let words = 0;
  let bytes = 0;
  return {
    ok: true,
    filter: {
      line(text) {
        lines++;
        words += text.split(/\s+/).filter(Boolean).length;
        bytes += new TextEncoder().encode(text).length + 1;
      },
      end() {
        const counts = [wanted.has('l') ? lines : undefined, wanted.has('w') ? words : undefined, wanted.has('c') ? bytes : undefined].filter((c): c is number => c !== undefined);
        // GNU wc on stdin: one count bare, several right-aligned in 7 columns.
        out(counts.length === 1 ? String(counts[0]) : counts.map((c) => String(c).padStart(7)).join(' '));
        return 0;
      },
    },
  };
}
