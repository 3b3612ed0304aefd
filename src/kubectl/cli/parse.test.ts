import { describe, expect, it } from 'vitest';
import { parseShell, splitWords } from './parse';

function only(input: string): { argv: string[]; stdin?: string } {
  const parsed = parseShell(input);
  if (!parsed.ok) throw new Error(parsed.error);
  expect(parsed.steps).toHaveLength(1);
  expect(parsed.steps[0].pipeline).toHaveLength(1);
  return parsed.steps[0].pipeline[0];
}

describe('parseShell', () => {
  it('splits words on blanks and keeps quoted blanks', () => {
    expect(splitWords('kubectl  get\tpods   -l "app in (web, api)"')).toEqual(['kubectl', 'get', 'pods', '-l', 'app in (web, api)']);
    expect(splitWords("kubectl annotate pod p 'note=it''s fine'")).toEqual(['kubectl', 'annotate', 'pod', 'p', 'note=its fine']);
  });

  it('single quotes are literal; double quotes keep \\$ \\" \\\\ escapes only', () => {
    expect(splitWords(`echo 'a\\nb' "c\\"d" "e\\nf" "\\$HOME"`)).toEqual(['echo', 'a\\nb', 'c"d', 'e\\nf', '$HOME']);
  });

  it('backslash escapes outside quotes, and backslash-newline continues the line', () => {
    expect(splitWords('kubectl get pods\\ x a\\"b')).toEqual(['kubectl', 'get', 'pods x', 'a"b']);
    expect(splitWords('kubectl create deployment web \\\n  --image=nginx')).toEqual(['kubectl', 'create', 'deployment', 'web', '--image=nginx']);
  });

  it('drops # comments at the start of a word, not inside one', () => {
    expect(splitWords('kubectl get pods # all of them')).toEqual(['kubectl', 'get', 'pods']);
    expect(splitWords('kubectl label pod p a=b#c')).toEqual(['kubectl', 'label', 'pod', 'p', 'a=b#c']);
    expect(parseShell('# just a comment')).toEqual({ ok: true, steps: [] });
  });

  it('an empty line has no steps', () => {
    expect(parseShell('   ')).toEqual({ ok: true, steps: [] });
  });

  it('a heredoc body becomes the command stdin', () => {
    const cmd = only('kubectl apply -f - <<EOF\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: demo\nEOF');
    expect(cmd.argv).toEqual(['kubectl', 'apply', '-f', '-']);
    expect(cmd.stdin).toBe('apiVersion: v1\nkind: Namespace\nmetadata:\n  name: demo\n');
  });

  it("quoted heredoc delimiters (<<'EOF', << \"END\") and <<- strip leading tabs", () => {
    expect(only("kubectl apply -f - <<'EOF'\na: $X\nEOF\n").stdin).toBe('a: $X\n');
    expect(only('kubectl apply -f - << "END"\nx\nEND').stdin).toBe('x\n');
    expect(only('kubectl apply -f - <<-EOF\n\tkind: Pod\n\tEOF').stdin).toBe('kind: Pod\n');
  });

  it('a heredoc without its closing line takes the rest of the input', () => {
    expect(only('kubectl apply -f - <<EOF\nkind: Pod\n').stdin).toBe('kind: Pod\n');
  });

  it('cat <<EOF | kubectl apply -f - is a pipeline whose first stage has the document', () => {
    const parsed = parseShell('cat <<EOF | kubectl apply -f -\nkind: Pod\nEOF\n');
    expect(parsed).toEqual({
      ok: true,
      steps: [{ op: ';', pipeline: [{ argv: ['cat'], stdin: 'kind: Pod\n' }, { argv: ['kubectl', 'apply', '-f', '-'] }] }],
    });
  });

  it('separates commands with ; && || and newlines', () => {
    const parsed = parseShell('kubectl create ns a && kubectl get ns a || kubectl version; kubectl get pods\nkubectl get svc');
    expect(parsed.ok && parsed.steps.map((s) => [s.op, s.pipeline[0].argv.slice(1).join(' ')])).toEqual([
      [';', 'create ns a'],
      ['&&', 'get ns a'],
      ['||', 'version'],
      [';', 'get pods'],
      [';', 'get svc'],
    ]);
  });

  it('reports unterminated quotes and operators as bash does', () => {
    expect(parseShell("kubectl get 'pods")).toEqual({ ok: false, error: "unexpected EOF while looking for matching `''" });
    expect(parseShell('kubectl get "pods')).toEqual({ ok: false, error: 'unexpected EOF while looking for matching `"\'' });
    expect(parseShell('| kubectl get pods')).toEqual({ ok: false, error: "syntax error near unexpected token `|'" });
    expect(parseShell('kubectl get pods &&')).toEqual({ ok: false, error: 'syntax error: unexpected end of file' });
    expect(parseShell('kubectl get pods > out.txt').ok).toBe(false);
  });
});
