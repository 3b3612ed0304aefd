// The console's shell: turns what the user typed (or pasted: several lines, a heredoc) into commands, the way
// bash would split them — words, single and double quotes, backslash escapes and line continuations, `#`
// comments, `;` `&&` `||` between commands, pipelines, and here-documents (`<<EOF`, `<<'EOF'`, `<<-EOF`)
// whose body becomes the command's stdin:
//
//   kubectl apply -f - <<EOF          cat <<EOF | kubectl apply -f -
//   apiVersion: v1                    apiVersion: v1
//   …                                 …
//   EOF                               EOF
//
// No variables, globs or command substitution: words are taken literally ($HOME stays "$HOME").

export interface ShellCommand {
  argv: string[];
  /** A here-document's body (each line ending in "\n"), when the command had one. */
  stdin?: string;
}

/** How a step joins the one before it. */
export type ShellOperator = ';' | '&&' | '||';

/** One pipeline (`a | b`), run after the previous step as `op` says. */
export interface ShellStep {
  pipeline: ShellCommand[];
  op: ShellOperator;
}

export type ShellParse = { ok: true; steps: ShellStep[] } | { ok: false; error: string };

interface PendingHeredoc {
  delimiter: string;
  stripTabs: boolean;
  command: ShellCommand;
}

const blank = (c: string): boolean => c === ' ' || c === '\t' || c === '\r';
const metachar = (c: string): boolean => blank(c) || c === '\n' || c === '|' || c === '&' || c === ';' || c === '<' || c === '>' || c === '(' || c === ')';

/** Splits a console input into steps of pipelines of commands; a bash-like error text when it cannot. */
export function parseShell(input: string): ShellParse {
  const steps: ShellStep[] = [];
  let pipeline: ShellCommand[] = [];
  let command: ShellCommand = { argv: [] };
  let op: ShellOperator = ';';
  let pendingOp: ShellOperator | '|' | undefined;
  const heredocs: PendingHeredoc[] = [];
  let i = 0;

  const syntaxError = (token: string): ShellParse => ({ ok: false, error: `syntax error near unexpected token \`${token}'` });

  const endCommand = (): boolean => {
    if (command.argv.length === 0 && command.stdin === undefined) return false;
    pipeline.push(command);
    command = { argv: [] };
    return true;
  };
  const endStep = (): void => {
    if (pipeline.length) steps.push({ pipeline, op });
    pipeline = [];
  };

  /** Reads one word starting at i; undefined when nothing but a metacharacter is there. */
  const readWord = (): { word: string; quoted: boolean } | { error: string } | undefined => {
    let word = '';
    let quoted = false;
    let any = false;
    while (i < input.length) {
      const c = input[i];
      if (metachar(c)) break;
      if (c === '\\') {
        if (input[i + 1] === '\n') {
          i += 2; // line continuation
          continue;
        }
        if (i + 1 >= input.length) {
          i++;
          any = true;
          continue;
        }
        word += input[i + 1];
        quoted = any = true;
        i += 2;
        continue;
      }
      if (c === "'") {
        const end = input.indexOf("'", i + 1);
        if (end < 0) return { error: "unexpected EOF while looking for matching `''" };
        word += input.slice(i + 1, end);
        quoted = any = true;
        i = end + 1;
        continue;
      }
      if (c === '"') {
        i++;
        let closed = false;
        while (i < input.length) {
          const d = input[i];
          if (d === '"') {
            closed = true;
            i++;
            break;
          }
          if (d === '\\' && i + 1 < input.length && '$`"\\\n'.includes(input[i + 1])) {
            if (input[i + 1] !== '\n') word += input[i + 1];
            i += 2;
            continue;
          }
          word += d;
          i++;
        }
        if (!closed) return { error: 'unexpected EOF while looking for matching `"\'' };
        quoted = any = true;
        continue;
      }
      word += c;
      any = true;
      i++;
    }
    return any ? { word, quoted } : undefined;
  };

  /** At a newline: the bodies of the here-documents started on the line just ended. */
  const readHeredocBodies = (): void => {
    for (const doc of heredocs.splice(0)) {
      let body = '';
      while (i < input.length) {
        const nl = input.indexOf('\n', i);
        const rawLine = nl < 0 ? input.slice(i) : input.slice(i, nl);
        i = nl < 0 ? input.length : nl + 1;
        const line = doc.stripTabs ? rawLine.replace(/^\t+/, '') : rawLine;
        if (line.replace(/\r$/, '') === doc.delimiter) break;
        body += line + '\n';
      }
      doc.command.stdin = body;
    }
  };

  while (i < input.length) {
    const c = input[i];
    if (blank(c)) {
      i++;
      continue;
    }
    if (c === '#') {
      while (i < input.length && input[i] !== '\n') i++;
      continue;
    }
    if (c === '\n') {
      i++;
      readHeredocBodies();
      if (pendingOp === '|' || pendingOp === '&&' || pendingOp === '||') continue; // the command goes on
      endCommand();
      endStep();
      op = ';';
      pendingOp = undefined;
      continue;
    }
    if (c === '|' || c === '&' || c === ';') {
      const two = input.slice(i, i + 2);
      const token = two === '||' || two === '&&' ? two : c;
      if (token === '&') return { ok: false, error: 'background jobs (&) are not supported here' };
      i += token.length;
      if (!endCommand()) return syntaxError(token);
      pendingOp = token as ShellOperator | '|';
      if (token !== '|') {
        endStep();
        op = token as ShellOperator;
      }
      continue;
    }
    if (c === '<' && input[i + 1] === '<') {
      if (input[i + 2] === '<') return { ok: false, error: 'here-strings (<<<) are not supported here' };
      const stripTabs = input[i + 2] === '-';
      i += stripTabs ? 3 : 2;
      while (i < input.length && blank(input[i])) i++;
      const word = readWord();
      if (!word) return syntaxError(i < input.length ? (input[i] === '\n' ? 'newline' : input[i]) : 'newline');
      if ('error' in word) return { ok: false, error: word.error };
      heredocs.push({ delimiter: word.word, stripTabs, command });
      command.stdin ??= '';
      pendingOp = undefined;
      continue;
    }
    if (c === '<' || c === '>') return { ok: false, error: 'redirection to or from files is not supported here: there is no file system' };
    if (c === '(' || c === ')') return syntaxError(c);
    const word = readWord();
    if (!word) {
      i++;
      continue;
    }
    if ('error' in word) return { ok: false, error: word.error };
    command.argv.push(word.word);
    pendingOp = undefined;
  }
  readHeredocBodies();
  if (pendingOp === '|' || pendingOp === '&&' || pendingOp === '||') return { ok: false, error: 'syntax error: unexpected end of file' };
  endCommand();
  endStep();
  return { ok: true, steps };
}

/** The words of a single simple command (tests and completion): quotes removed, heredocs and operators ignored. */
export function splitWords(line: string): string[] {
  const parsed = parseShell(line);
  if (!parsed.ok) return [];
  return parsed.steps.flatMap((s) => s.pipeline.flatMap((c) => c.argv));
}
