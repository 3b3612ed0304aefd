import { describe, expect, it } from 'vitest';
import type { FlagSpec } from './command';
import { formatFlagDefault, parseFlags, type ParsedFlags } from './flags';

const specs: FlagSpec[] = [
  { name: 'output', shorthand: 'o', type: 'string', default: '', usage: '' },
  { name: 'all-namespaces', shorthand: 'A', type: 'bool', default: false, usage: '' },
  { name: 'watch', shorthand: 'w', type: 'bool', default: false, usage: '' },
  { name: 'stdin', shorthand: 'i', type: 'bool', default: false, usage: '' },
  { name: 'tty', shorthand: 't', type: 'bool', default: false, usage: '' },
  { name: 'container', shorthand: 'c', type: 'string', default: '', usage: '' },
  { name: 'replicas', type: 'int', default: -1, usage: '' },
  { name: 'since', type: 'duration', default: '0s', usage: '' },
  { name: 'timeout', type: 'duration', default: '30s', usage: '' },
  { name: 'from-literal', type: 'stringArray', default: [], usage: '' },
  { name: 'label-columns', shorthand: 'L', type: 'stringSlice', default: [], usage: '' },
  { name: 'cascade', type: 'string', default: 'background', noOptDefault: 'background', usage: '' },
  { name: 'field-manager', type: 'string', default: 'kubectl-client-side-apply', usage: '' },
];

function parse(...argv: string[]): { flags: ParsedFlags; args: string[] } {
  const result = parseFlags(specs, argv);
  if (!result.ok) throw new Error(result.error);
  return result;
}

function error(...argv: string[]): string {
  const result = parseFlags(specs, argv);
  if (result.ok) throw new Error('parsed');
  return result.error;
}

describe('parseFlags (pflag semantics)', () => {
  it('takes values as --flag=value, --flag value, -o value, -ovalue and -o=value', () => {
    expect(parse('--output=yaml').flags.get('output')).toBe('yaml');
    expect(parse('--output', 'yaml').flags.get('output')).toBe('yaml');
    expect(parse('-o', 'yaml').flags.get('output')).toBe('yaml');
    expect(parse('-oyaml').flags.get('output')).toBe('yaml');
    expect(parse('-o=yaml').flags.get('output')).toBe('yaml');
    expect(parse('--output=').flags.get('output')).toBe('');
  });

  it('intersperses flags and arguments, and keeps a lone - as an argument', () => {
    const { flags, args } = parse('pods', '-o', 'wide', 'web', '-A', '-');
    expect(args).toEqual(['pods', 'web', '-']);
    expect(flags.get('output')).toBe('wide');
    expect(flags.get('all-namespaces')).toBe(true);
  });

  it('bool flags: bare is true, =false sets false, and a following word stays an argument', () => {
    expect(parse('--all-namespaces').flags.get('all-namespaces')).toBe(true);
    expect(parse('--all-namespaces=false').flags.get('all-namespaces')).toBe(false);
    const { flags, args } = parse('--watch', 'false');
    expect(flags.get('watch')).toBe(true);
    expect(args).toEqual(['false']);
    expect(parse('-A=false').flags.get('all-namespaces')).toBe(false);
  });

  it('shorthand clusters: -it, and a value-taking flag ending a cluster', () => {
    const it1 = parse('-it').flags;
    expect([it1.get('stdin'), it1.get('tty')]).toEqual([true, true]);
    const it2 = parse('-itc', 'app');
    expect(it2.flags.get('container')).toBe('app');
    expect(parse('-itcapp').flags.get('container')).toBe('app');
  });

  it('defaults, and changed() only for flags given', () => {
    const { flags } = parse('pods');
    expect(flags.get('replicas')).toBe(-1);
    expect(flags.get('timeout')).toBe(30_000);
    expect(flags.get('from-literal')).toEqual([]);
    expect(flags.get('field-manager')).toBe('kubectl-client-side-apply');
    expect(flags.changed('replicas')).toBe(false);
    expect(parse('--replicas=3').flags.changed('replicas')).toBe(true);
  });

  it('int and duration values', () => {
    expect(parse('--replicas', '3').flags.get('replicas')).toBe(3);
    expect(parse('--since=1h').flags.get('since')).toBe(3_600_000);
  });

  it('stringArray appends each use; stringSlice also splits on commas', () => {
    expect(parse('--from-literal=a=1', '--from-literal', 'b=2,c=3').flags.get('from-literal')).toEqual(['a=1', 'b=2,c=3']);
    expect(parse('-L', 'app,tier', '-L', 'zone').flags.get('label-columns')).toEqual(['app', 'tier', 'zone']);
  });

  it('NoOptDefVal: a bare --cascade takes its default and leaves the next word alone', () => {
    const { flags, args } = parse('--cascade', 'pods');
    expect(flags.get('cascade')).toBe('background');
    expect(args).toEqual(['pods']);
    expect(parse('--cascade=orphan').flags.get('cascade')).toBe('orphan');
  });

  it('-- ends the flags and records where', () => {
    const { flags, args } = parse('web', '-c', 'app', '--', 'ls', '-l', '--output=x');
    expect(args).toEqual(['web', 'ls', '-l', '--output=x']);
    expect(flags.argsLenAtDash).toBe(1);
    expect(flags.get('output')).toBe('');
    expect(parse('web').flags.argsLenAtDash).toBe(-1);
  });

  it("pflag's error texts", () => {
    expect(error('--foo')).toBe('unknown flag: --foo');
    expect(error('--foo=bar')).toBe('unknown flag: --foo');
    expect(error('-z')).toBe("unknown shorthand flag: 'z' in -z");
    expect(error('-wz')).toBe("unknown shorthand flag: 'z' in -z");
    expect(error('--output')).toBe('flag needs an argument: --output');
    expect(error('-o')).toBe("flag needs an argument: 'o' in -o");
    expect(error('---x')).toBe('bad flag syntax: ---x');
    expect(error('--=x')).toBe('bad flag syntax: --=x');
    expect(error('--replicas=x')).toBe('invalid argument "x" for "--replicas" flag: strconv.ParseInt: parsing "x": invalid syntax');
    expect(error('--replicas', '')).toBe('invalid argument "" for "--replicas" flag: strconv.ParseInt: parsing "": invalid syntax');
    expect(error('--watch=maybe')).toBe('invalid argument "maybe" for "-w, --watch" flag: strconv.ParseBool: parsing "maybe": invalid syntax');
    expect(error('--since=5')).toBe('invalid argument "5" for "--since" flag: time: missing unit in duration "5"');
  });

  it('renders defaults as kubectl help does', () => {
    const by = (name: string): FlagSpec => specs.find((s) => s.name === name)!;
    expect(formatFlagDefault(by('output'))).toBe("''");
    expect(formatFlagDefault(by('field-manager'))).toBe("'kubectl-client-side-apply'");
    expect(formatFlagDefault(by('watch'))).toBe('false');
    expect(formatFlagDefault(by('replicas'))).toBe('-1');
    expect(formatFlagDefault(by('timeout'))).toBe('30s');
    expect(formatFlagDefault(by('from-literal'))).toBe('[]');
  });
});

describe('parseFlags with shadowed flags', () => {
  it("lets a command's own flag shadow a global one of the same name", () => {
    const own: FlagSpec = { name: 'namespace', type: 'string', default: 'mine', usage: '' };
    const global: FlagSpec = { name: 'namespace', shorthand: 'n', type: 'string', default: '', usage: '' };
    const parsed = parseFlags([own, global], []);
    expect(parsed.ok && parsed.flags.get('namespace')).toBe('mine');
    const given = parseFlags([own, global], ['-n', 'x']);
    expect(given.ok && given.flags.get('namespace')).toBe('x');
  });
});
