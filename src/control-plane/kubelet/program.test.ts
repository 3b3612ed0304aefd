import { describe, expect, it } from 'vitest';
import { parseImageReference, profileFor } from './images';
import { filesAt, outputUntil, runExecCommand, runProgram, SigtermAction, type ProgramContext } from './program';

function ctx(image: string, argv: string[] | undefined, extra: Partial<ProgramContext> = {}): ProgramContext {
  const ref = parseImageReference(image);
  return {
    argv,
    imageDefault: argv === undefined,
    image: profileFor(ref),
    ref,
    env: {},
    hostname: 'pod-1',
    files: { '/var/run/secrets/kubernetes.io/serviceaccount/namespace': 'default' },
    startTime: Date.UTC(2026, 0, 1),
    declaresPorts: false,
    ...extra,
  };
}

describe('runProgram', () => {
  it('runs sleeps and exits with the code the script gives', () => {
    const run = runProgram(ctx('busybox', ['sh', '-c', 'sleep 5; exit 1']));
    expect(run.end).toEqual({ type: 'exit', at: 5000, code: 1 });
    expect(run.sigterm).toBe(SigtermAction.Ignore);
  });

  it('follows && and || and the status of the last command', () => {
    expect(runProgram(ctx('busybox', ['sh', '-c', 'false && echo no; echo yes'])).events.map((e) => e.type === 'out' && e.text)).toEqual(['yes']);
    expect(runProgram(ctx('busybox', ['sh', '-c', 'false || exit 3'])).end).toEqual({ type: 'exit', at: 0, code: 3 });
    expect(runProgram(ctx('busybox', ['sh', '-c', 'echo hi; false'])).end).toEqual({ type: 'exit', at: 0, code: 1 });
  });

  it('treats exec-form commands as written: sleep N then exit 0; sleep infinity blocks', () => {
    expect(runProgram(ctx('alpine', ['sleep', '3600'])).end).toEqual({ type: 'exit', at: 3_600_000, code: 0 });
    expect(runProgram(ctx('alpine', ['sleep', 'infinity'])).end).toEqual({ type: 'forever', at: 0 });
    expect(runProgram(ctx('alpine', ['tail', '-f', '/dev/null'])).end.type).toBe('forever');
  });

  it('shares one frozen run among programs that record nothing and block alike', () => {
    const a = runProgram(ctx('registry.k8s.io/pause:3.10', undefined));
    const b = runProgram(ctx('registry.k8s.io/pause:3.10', undefined, { hostname: 'pod-2' }));
    expect(b).toBe(a);
    expect(Object.isFrozen(a) && Object.isFrozen(a.end)).toBe(true);
    expect(a.end).toEqual({ type: 'forever', at: a.end.at });
    expect(a.events).toEqual([]);
    // A run that records something is its own.
    const echo = runProgram(ctx('busybox', ['sh', '-c', 'echo hi; sleep infinity']));
    expect(echo).not.toBe(runProgram(ctx('busybox', ['sh', '-c', 'echo hi; sleep infinity'])));
  });

  it('turns an endless loop into a periodic run whose output grows with time', () => {
    const run = runProgram(ctx('busybox', ['sh', '-c', 'while true; do echo "tick"; sleep 2; done']));
    expect(run.end).toMatchObject({ type: 'loop', at: 0, period: 2000 });
    expect(outputUntil(run, 5000, 100).map((l) => l.at)).toEqual([0, 2000, 4000]);
    expect(outputUntil(run, 3_600_000, 5)).toHaveLength(5);
  });

  it('echo writes to the log unless redirected to a file', () => {
    const run = runProgram(ctx('alpine', ['sh', '-c', 'echo "logging" >> /opt/logs.txt; echo shown; date']));
    expect(run.events.filter((e) => e.type === 'out').map((e) => (e as { text: string }).text)).toEqual(['shown', 'Thu Jan  1 00:00:00 UTC 2026']);
  });

  it('expands variables and command substitution', () => {
    const run = runProgram(ctx('busybox', ['sh', '-c', 'echo "ns=$(cat /var/run/secrets/kubernetes.io/serviceaccount/namespace) greeting=$GREETING ${MISSING:-dflt}"'], { env: { GREETING: 'hi' } }));
    expect(run.events[0]).toMatchObject({ type: 'out', text: 'ns=default greeting=hi dflt' });
  });

  it('runs Kubernetes daemons given as the command as servers, not as one-second jobs', () => {
    const run = runProgram(ctx('gcr.io/my-gcp-project/my-kube-scheduler:1.0', ['/usr/local/bin/kube-scheduler', '--bind-address=0.0.0.0']));
    expect(run.end.type).toBe('forever');
    expect(run.serves).toBe(true);
    expect(run.sigterm).toBe(SigtermAction.Exit0);
  });

  it('runs the image default: servers stay up and handle SIGTERM, shells exit 0 at once', () => {
    const nginx = runProgram(ctx('nginx:1.14.2', undefined));
    expect(nginx.end.type).toBe('forever');
    expect(nginx.serves).toBe(true);
    expect(nginx.sigterm).toBe(SigtermAction.Exit0);
    expect(nginx.events.some((e) => e.type === 'out' && e.text.includes('nginx/1.14.2'))).toBe(true);
    expect(runProgram(ctx('busybox', undefined)).end).toEqual({ type: 'exit', at: 0, code: 0 });
  });

  it('a shell script running sleep ignores SIGTERM (PID 1 has no default handler)', () => {
    expect(runProgram(ctx('busybox', ['sh', '-c', 'sleep 3600'])).sigterm).toBe(SigtermAction.Ignore);
  });

  it('mysql without a root password exits 1 with the entrypoint error', () => {
    const run = runProgram(ctx('mysql:8.0', undefined));
    expect(run.end).toMatchObject({ type: 'exit', code: 1 });
    expect(runProgram(ctx('mysql:8.0', undefined, { env: { MYSQL_ROOT_PASSWORD: 'x' } })).end.type).toBe('forever');
  });

  it('records stress allocations', () => {
    const run = runProgram(ctx('polinux/stress', ['stress', '--vm', '1', '--vm-bytes', '250M', '--vm-hang', '1']));
    expect(run.allocations).toEqual([{ at: 200, bytes: 250 * 1024 * 1024 }]);
    expect(run.end.type).toBe('forever');
  });

  it('tracks files for exec probes: the docs exec-liveness example fails after 30 s', () => {
    const c = ctx('registry.k8s.io/busybox:1.27.2', ['/bin/sh', '-c', 'touch /tmp/healthy; sleep 30; rm -f /tmp/healthy; sleep 600']);
    const run = runProgram(c);
    expect(runExecCommand(['cat', '/tmp/healthy'], c, filesAt(run, 10_000)).code).toBe(0);
    const late = runExecCommand(['cat', '/tmp/healthy'], c, filesAt(run, 31_000));
    expect(late).toMatchObject({ code: 1, output: "cat: can't open '/tmp/healthy': No such file or directory" });
  });

  it('reports a syntax error like sh', () => {
    const run = runProgram(ctx('busybox', ['sh', '-c', 'while true; do echo x']));
    expect(run.end).toMatchObject({ type: 'exit', code: 2 });
  });
});

describe('a program waiting on the network', () => {
  const nx = { found: false as const, tried: ['myservice.default.svc.cluster.local'] };
  const yes = { found: true as const, fqdn: 'myservice.default.svc.cluster.local', addresses: ['10.96.0.20'], ptr: { '10.96.0.20': 'myservice.default.svc.cluster.local' } };
  const script = ['sh', '-c', 'until nslookup myservice; do echo waiting; sleep 2; done; echo done'];
  const network = (answer: () => typeof nx | typeof yes) => ({
    lookup: () => answer(),
    request: () => ({ ok: false, hops: [], durationMs: 1, error: 'curl: (7) x' }),
  });

  it('ends in a poll on the question whose answer it waits for, with one iteration as the period', () => {
    const run = runProgram(ctx('busybox:1.36', script, { network: network(() => nx) }));
    expect(run.end).toMatchObject({ type: 'poll', at: 0, period: 2002, watch: [{ kind: 'lookup', name: 'myservice' }] });
    expect(outputUntil(run, 6100, 100).filter((l) => l.text === 'waiting').map((l) => l.at)).toEqual([2, 2004, 4006, 6008]);
    expect(run.network).toHaveLength(1);
  });

  it('replays the journal before liveFrom and asks the network after it', () => {
    let answer: typeof nx | typeof yes = nx;
    const first = runProgram(ctx('busybox:1.36', script, { network: network(() => answer) }));
    answer = yes;
    const again = runProgram(ctx('busybox:1.36', script, { network: network(() => answer), networkJournal: { liveFrom: 3 * 2002, calls: first.network! } }));
    // Three iterations waited (0, 2002, 4004), the fourth (6006) found the name.
    expect(again.end).toEqual({ type: 'exit', at: 6006 + 2, code: 0 });
    expect(again.events.filter((e) => e.type === 'out' && e.text === 'waiting')).toHaveLength(3);
    expect(again.events.at(-1)).toMatchObject({ type: 'out', text: 'done' });
  });

  it('keeps iterating a loop that changes its state (a counter) on the frozen network', () => {
    const run = runProgram(ctx('busybox:1.36', ['sh', '-c', 'i=0; until nslookup x || [ $i -ge 3 ]; do i=$((i+1)); sleep 1; done'], { network: network(() => nx) }));
    expect(run.end).toEqual({ type: 'exit', at: 3 * 1002 + 2, code: 0 });
  });
});
