// Runs a container's process on virtual time, ahead of time: the command line (exec form or `sh -c` script) is
// interpreted once when the container starts and yields its whole observable future — log lines and file
// changes with their offsets, memory allocations, and how it ends (exits with a code, blocks forever, or loops
// with a period). The runtime then only compares offsets with the clock. See README.md for what is understood.
import { rfc3339 } from '../sim/clock';
import { ImageRun, imageVersion, type ImageProfile, type ImageReference } from './images';
import { argvCommand, parseScript, ShellSyntaxError, type Command, type List, type Redirect, type Word } from './script-parser';
import { curl, imageHasTool, isOldBusyboxNslookup, nslookup, wget, type PodNetwork, type ToolOutput } from '../network/tools';
import type { TrafficResult } from '../../shared/protocol/network';
import type { DnsAnswer } from '../network/dns';

export type ProgramEvent =
  | { at: number; type: 'out'; text: string }
  /** content: the file's lines as the program leaves them (shared volumes show them to other containers). */
  | { at: number; type: 'file'; path: string; exists: boolean; content?: string[] };

export type ProgramEnd =
  | { type: 'exit'; at: number; code: number }
  /** Blocks from `at` on (sleep infinity, tail -f, a server). */
  | { type: 'forever'; at: number }
  /** From `at`, repeats `events` (offsets within an iteration) every `period` ms, forever. */
  | { type: 'loop'; at: number; period: number; events: ProgramEvent[] }
  /**
   * From `at`, a loop waiting on the network (`until nslookup svc; do sleep 2; done`) repeats `events` every
   * `period` ms for as long as the answers to `watch` stay what they were; the pod worker re-asks them at each
   * iteration and, when one changes, interprets the program again from that iteration on (see README.md).
   */
  | { type: 'poll'; at: number; period: number; events: ProgramEvent[]; watch: NetworkCall[] };

/** A question a program asked the network. */
export type NetworkCall = { kind: 'lookup'; name: string } | { kind: 'request'; url: string; method?: string; host?: string };

/** A network call and the answer the program got, at its offset (the journal a re-interpretation replays). */
export interface NetworkCallRecord {
  call: NetworkCall;
  at: number;
  answer: DnsAnswer | TrafficResult;
}

/** What the process does on SIGTERM: servers shut down (exit 0), apps exit 143, PID-1 shells ignore it. */
export const SigtermAction = { Exit0: 'exit0', Exit143: 'exit143', Ignore: 'ignore' } as const;
export type SigtermAction = (typeof SigtermAction)[keyof typeof SigtermAction];

export interface ProgramRun {
  /** Finite prefix, sorted by offset. */
  events: ProgramEvent[];
  end: ProgramEnd;
  /** Whether a server is running once the program settles (it serves its ports). */
  serves: boolean;
  /** Memory the process allocates on top of its image's baseline, with when. */
  allocations: { at: number; bytes: number }[];
  sigterm: SigtermAction;
  /** The network calls the program made, in order, with their answers (only with ProgramContext.network). */
  network?: NetworkCallRecord[];
}

export interface ProgramContext {
  argv: string[] | undefined;
  /** True when the container gives neither command nor args: the image's default process runs. */
  imageDefault: boolean;
  image: ImageProfile;
  ref: ImageReference;
  env: Record<string, string>;
  hostname: string;
  /** Files whose content the container can read (service account namespace, /etc/hostname…). */
  files: Record<string, string>;
  /** Absolute start time (ms) for date and log timestamps. */
  startTime: number;
  /** Whether the container declares ports (an unknown program then is taken to be a server). */
  declaresPorts: boolean;
  /** The pod's network (DNS, Services, other pods): curl, wget and nslookup use it when given (kubectl exec does). */
  network?: PodNetwork;
  /**
   * Re-interpretation of a running program: calls before offset `liveFrom` get the answers it got then (the
   * journal, in call order; a later repetition of a call gets that call's last answer), later ones ask the network.
   */
  networkJournal?: { liveFrom: number; calls: NetworkCallRecord[] };
  /**
   * The simulated cluster is offline; a container's own start-up program (the docs' init container fetching
   * http://info.cern.ch) reaches a name under a public top-level domain as before the data plane existed: the
   * request succeeds in 150 ms. kubectl exec leaves it unset: such names do not resolve.
   */
  internetStandIn?: boolean;
}

const maxEvents = 5000;
const maxIterations = 2000;
const horizonMs = 30 * 24 * 3_600_000;
const minLoopPeriodMs = 10;

class End {
  constructor(readonly end: ProgramEnd) {}
}

interface Output {
  stdout: 'log' | 'null' | { file: string; append: boolean } | { capture: string[] };
  stderr: 'log' | 'null' | 'stdout';
}

interface FileState {
  exists: boolean;
  content: string[];
}

const shells = new Set(['sh', 'bash', 'ash', 'dash', 'zsh', 'ksh']);
const knownServers = new Set([
  'nginx', 'nginx-debug', 'redis-server', 'httpd', 'httpd-foreground', 'apache2-foreground', 'mysqld', 'postgres', 'memcached', 'mongod',
  'pause', 'php-fpm', 'caddy', 'haproxy', 'traefik', 'rabbitmq-server', 'zkServer.sh', 'start-zookeeper', 'agnhost', 'hello-app',
  // Kubernetes' own daemons (the docs' second-scheduler Deployment runs kube-scheduler).
  'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kube-proxy', 'etcd', 'coredns',
]);

class Interpreter {
  t = 0;
  status = 0;
  events: ProgramEvent[] = [];
  allocations: { at: number; bytes: number }[] = [];
  serves = false;
  sigterm: SigtermAction = SigtermAction.Ignore;
  private readonly fs = new Map<string, FileState>();
  private readonly vars: Record<string, string>;
  private out: Output = { stdout: 'log', stderr: 'log' };
  private background = false;
  /** Network calls made, with answers; how many asked the live network. */
  readonly calls: NetworkCallRecord[] = [];
  private liveCalls = 0;
  private readonly net: PodNetwork | undefined;
  /** The command line being run (a server reads its flags from it). */
  private argv: string[] = [];

  constructor(private readonly ctx: ProgramContext) {
    this.vars = { HOME: '/root', PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', HOSTNAME: ctx.hostname, ...ctx.env };
    for (const [path, content] of Object.entries(ctx.files)) this.fs.set(path, { exists: true, content: content.split('\n') });
    const network = ctx.network;
    this.net = network && {
      lookup: (name) => this.netCall({ kind: 'lookup', name }, () => network.lookup(name)) as DnsAnswer,
      request: (req) =>
        this.netCall({ kind: 'request', url: req.url, ...(req.method ? { method: req.method } : {}), ...(req.host ? { host: req.host } : {}) }, () => network.request(req)) as TrafficResult,
    };
  }

  /** One network call: replayed from the journal before its liveFrom, else asked live; recorded either way. */
  private netCall(call: NetworkCall, live: () => DnsAnswer | TrafficResult): DnsAnswer | TrafficResult {
    const journal = this.ctx.networkJournal;
    let answer: DnsAnswer | TrafficResult | undefined;
    if (journal && this.t < journal.liveFrom) {
      const key = JSON.stringify(call);
      const same = journal.calls[this.calls.length];
      if (same && JSON.stringify(same.call) === key) answer = same.answer;
      else answer = lastAnswer(journal.calls, call);
    }
    if (answer === undefined) {
      answer = live();
      this.liveCalls++;
    }
    this.calls.push({ call, at: this.t, answer });
    return answer;
  }

  /** Starts from the file states a running container has (for probes and hooks run inside it). */
  seedFiles(files: Map<string, boolean>): void {
    for (const [path, exists] of files) this.fs.set(path, { exists, content: [] });
  }

  // ------------------------------------------------------------ output and files

  private emit(text: string, stream: 'stdout' | 'stderr' = 'stdout'): void {
    const target = stream === 'stderr' ? (this.out.stderr === 'stdout' ? this.out.stdout : this.out.stderr) : this.out.stdout;
    if (target === 'null') return;
    if (target === 'log') {
      if (this.events.length < maxEvents) this.events.push({ at: this.t, type: 'out', text });
      return;
    }
    if ('capture' in target) {
      target.capture.push(text);
      return;
    }
    const f = this.fs.get(target.file);
    if (f?.exists) f.content.push(text);
    else this.setFile(target.file, true, [text]);
  }

  private setFile(path: string, exists: boolean, content: string[] = []): void {
    this.fs.set(path, { exists, content });
    if (this.events.length < maxEvents) this.events.push({ at: this.t, type: 'file', path, exists, content });
  }

  /** A file nobody created or removed is assumed to exist (the image ships it, a volume holds it). */
  private fileExists(path: string): boolean {
    return this.fs.get(path)?.exists ?? !path.startsWith('/tmp/');
  }

  private advance(ms: number): void {
    this.t += ms;
    if (this.t > horizonMs) throw new End({ type: 'forever', at: this.t });
  }

  // ------------------------------------------------------------ expansion

  private expandText(text: string): string {
    let out = '';
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (c === '\\' && text[i + 1] === '$') {
        out += '$';
        i++;
        continue;
      }
      if (c !== '$') {
        out += c;
        continue;
      }
      const rest = text.slice(i + 1);
      if (rest.startsWith('((')) {
        const end = text.indexOf('))', i);
        out += String(evalArithmetic(text.slice(i + 3, end < 0 ? text.length : end), this.vars));
        i = end < 0 ? text.length : end + 1;
        continue;
      }
      if (rest.startsWith('(')) {
        let depth = 0;
        let j = i + 1;
        for (; j < text.length; j++) {
          if (text[j] === '(') depth++;
          else if (text[j] === ')' && --depth === 0) break;
        }
        out += this.substitute(text.slice(i + 2, j));
        i = j;
        continue;
      }
      const braced = /^\{([A-Za-z_][A-Za-z0-9_]*)(?::?-([^}]*))?\}/.exec(rest);
      if (braced) {
        const v = this.vars[braced[1]];
        out += v !== undefined && v !== '' ? v : (braced[2] ?? '');
        i += braced[0].length;
        continue;
      }
      const simple = /^([A-Za-z_][A-Za-z0-9_]*|\?|\$|#|[0-9])/.exec(rest);
      if (simple) {
        const name = simple[1];
        out += name === '?' ? String(this.status) : name === '$' ? '1' : name === '#' ? '0' : (this.vars[name] ?? '');
        i += name.length;
        continue;
      }
      out += '$';
    }
    return out;
  }

  /** $(…): runs the inner script, capturing its output, without taking time. */
  private substitute(script: string): string {
    const capture: string[] = [];
    const saved = { out: this.out, t: this.t, status: this.status, events: this.events.length };
    this.out = { stdout: { capture }, stderr: 'null' };
    try {
      this.runList(parseScript(script));
    } catch (err) {
      if (!(err instanceof End) && !(err instanceof ShellSyntaxError)) throw err;
    } finally {
      this.out = saved.out;
      this.t = saved.t;
      this.events.length = Math.min(this.events.length, saved.events);
    }
    return capture.join('\n').replace(/\n+$/, '');
  }

  private expandWords(words: Word[]): string[] {
    const out: string[] = [];
    for (const w of words) {
      let value = '';
      let split = false;
      for (const p of w.parts) {
        if (p.type === 'literal') value += p.text;
        else {
          const expanded = this.expandText(p.text);
          if (!p.quoted && p.text.includes('$')) split = true;
          value += expanded;
        }
      }
      if (split && w.parts.length === 1) out.push(...value.split(/\s+/).filter((s) => s !== ''));
      else out.push(value);
    }
    return out;
  }

  // ------------------------------------------------------------ execution

  runList(list: List): void {
    for (const item of list.items) {
      if (item.background) this.runBackground(item.andOr);
      else this.runAndOr(item.andOr);
    }
  }

  private runBackground(andOr: List['items'][number]['andOr']): void {
    const saved = { t: this.t, status: this.status, sigterm: this.sigterm, bg: this.background };
    this.background = true;
    try {
      this.runAndOr(andOr);
    } catch (err) {
      if (!(err instanceof End)) throw err;
    } finally {
      this.t = saved.t;
      this.status = 0;
      this.sigterm = saved.sigterm;
      this.background = saved.bg;
    }
  }

  private runAndOr(andOr: List['items'][number]['andOr']): void {
    this.runPipeline(andOr.first);
    for (const { op, pipeline } of andOr.rest) {
      if ((op === '&&' && this.status === 0) || (op === '||' && this.status !== 0)) this.runPipeline(pipeline);
    }
  }

  private runPipeline(p: List['items'][number]['andOr']['first']): void {
    const saved = this.out;
    p.commands.forEach((cmd, i) => {
      // Only the last command's output reaches the log; earlier ones feed the pipe.
      this.out = i < p.commands.length - 1 ? { stdout: 'null', stderr: saved.stderr } : saved;
      try {
        this.runCommand(cmd);
      } finally {
        this.out = saved;
      }
    });
    if (p.negate) this.status = this.status === 0 ? 1 : 0;
  }

  private withRedirects<T>(redirects: Redirect[], fn: () => T): T {
    if (redirects.length === 0) return fn();
    const saved = this.out;
    const next: Output = { ...saved };
    for (const r of redirects) {
      const target = r.target ? this.expandWords([r.target])[0] ?? '' : '';
      const sink = (): Output['stdout'] =>
        target === '/dev/null' ? 'null' : target === '/dev/stdout' || target === '/proc/1/fd/1' ? 'log' : { file: target, append: r.op.endsWith('>>') };
      switch (r.op) {
        case '>':
        case '>>': {
          const s = sink();
          if (typeof s === 'object' && 'file' in s && !s.append) this.setFile(s.file, true, []);
          next.stdout = s;
          break;
        }
        case '2>':
        case '2>>':
          next.stderr = target === '/dev/null' ? 'null' : 'log';
          break;
        case '&>':
          next.stdout = sink();
          next.stderr = 'stdout';
          break;
        case '2>&1':
          next.stderr = 'stdout';
          break;
        case '>&2':
        case '<':
          break;
      }
    }
    this.out = next;
    try {
      return fn();
    } finally {
      this.out = saved;
    }
  }

  private runCommand(cmd: Command): void {
    this.withRedirects(cmd.redirects, () => {
      switch (cmd.type) {
        case 'simple':
          return this.runSimple(this.expandWords(cmd.words), cmd.words.length > 0 && assignmentOnly(cmd.words));
        case 'group':
          return this.runList(cmd.list);
        case 'if': {
          for (const clause of cmd.clauses) {
            this.runList(clause.cond);
            if (this.status === 0) return this.runList(clause.body);
          }
          if (cmd.elseBody) this.runList(cmd.elseBody);
          else this.status = 0;
          return;
        }
        case 'for': {
          const items = cmd.items ? this.expandWords(cmd.items) : [];
          for (const item of items) {
            this.vars[cmd.variable] = item;
            this.runList(cmd.body);
          }
          return;
        }
        case 'while':
          return this.runWhile(cmd);
      }
    });
  }

  private runWhile(cmd: Extract<Command, { type: 'while' }>): void {
    const literal = literalCondition(cmd.cond);
    const forever = (literal === true && !cmd.until) || (literal === false && cmd.until);
    if (forever && !this.background) {
      // An endless loop: one iteration is the period, repeated for ever (unless it exits).
      const start = this.t;
      const mark = this.events.length;
      this.runList(cmd.body);
      const period = Math.max(this.t - start, minLoopPeriodMs);
      const events = this.events.splice(mark).map((e) => ({ ...e, at: e.at - start }));
      throw new End({ type: 'loop', at: start, period, events });
    }
    for (let i = 0; i < maxIterations; i++) {
      const start = this.t;
      const mark = this.events.length;
      const live = this.liveCalls;
      const calls = this.calls.length;
      const state = this.net && !this.background ? this.stateKey() : undefined;
      this.runList(cmd.cond);
      const condAsked = this.liveCalls > live;
      const holds = this.status === 0;
      if (holds === cmd.until) {
        this.status = 0;
        return;
      }
      const before = this.t;
      this.runList(cmd.body);
      if (this.t === before) this.advance(minLoopPeriodMs);
      // An iteration whose condition asked the live network and that left the shell as it found it repeats until
      // an answer changes: the pod worker watches those answers (ProgramEnd 'poll') instead of iterating on a frozen
      // network. (A loop that only fetches in its body — a load generator — runs on the network as it was.)
      if (state !== undefined && condAsked && this.stateKey() === state) {
        const watch = dedupeCalls(this.calls.slice(calls).map((c) => c.call));
        const events = this.events.splice(mark).map((e) => ({ ...e, at: e.at - start }));
        throw new End({ type: 'poll', at: start, period: this.t - start, events, watch });
      }
    }
    throw new End({ type: 'forever', at: this.t });
  }

  private runSimple(argv: string[], onlyAssignments: boolean): void {
    if (onlyAssignments) {
      for (const a of argv) {
        const eq = a.indexOf('=');
        this.vars[a.slice(0, eq)] = a.slice(eq + 1);
      }
      this.status = 0;
      return;
    }
    // Leading NAME=value words set the command's environment.
    while (argv.length > 1 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(argv[0])) argv = argv.slice(1);
    if (argv.length === 0) return;
    this.exec(argv, false);
  }

  /** Runs one command. top: it is the container's whole command (no shell around it). */
  exec(argv: string[], top: boolean): void {
    this.argv = argv;
    const name = basename(argv[0]);
    const args = argv.slice(1);
    this.status = 0;
    if (shells.has(name)) {
      const ci = args.findIndex((a) => /^-[a-z]*c[a-z]*$/.test(a));
      if (ci >= 0 && args[ci + 1] !== undefined) {
        let list: List;
        try {
          list = parseScript(args[ci + 1]);
        } catch (err) {
          if (!(err instanceof ShellSyntaxError)) throw err;
          this.emit(`${name}: -c: line 1: ${err.message}`, 'stderr');
          this.status = 2;
          if (top) throw new End({ type: 'exit', at: this.t, code: 2 });
          return;
        }
        this.runList(list);
        if (top) throw new End({ type: 'exit', at: this.t, code: this.status });
        return;
      }
      // A shell with no script and no terminal reads an empty stdin and exits.
      this.status = 0;
      if (top) throw new End({ type: 'exit', at: this.t, code: 0 });
      return;
    }
    const dispatch = this.ctx.image.entrypointDispatch;
    if (dispatch && name === basename(this.ctx.image.entrypoint?.[0] ?? '')) {
      // The image's entrypoint script: `exec "$@"` when the first argument is a command, else the image's program.
      const first = args[0];
      const command = first !== undefined && (first.startsWith('/') || /^[A-Za-z_][\w-]*$/.test(first));
      return this.exec(command ? args : [dispatch, ...args], top);
    }
    switch (name) {
      case 'exec':
        if (args.length) this.exec(args, top);
        return;
      case 'exit':
        throw new End({ type: 'exit', at: this.t, code: args.length ? toExitCode(args[0]) : this.status });
      case 'true':
      case ':':
      case 'cd':
      case 'export':
      case 'set':
      case 'unset':
      case 'trap':
      case 'shift':
      case 'local':
      case 'mkdir':
      case 'chmod':
      case 'chown':
      case 'cp':
      case 'mv':
      case 'ln':
      case 'source':
      case '.':
      case 'wait':
      case 'kill':
      case 'ulimit':
      case 'umask':
      case 'sync':
        this.status = 0;
        return;
      case 'false':
        this.status = 1;
        return;
      case 'read':
        this.status = 1;
        return;
      case 'sleep':
        return this.sleep(args);
      case 'echo':
        return this.echo(args);
      case 'printf':
        return this.printf(args);
      case 'touch':
        for (const f of args.filter((a) => !a.startsWith('-'))) if (!this.fileExists(f) || !this.fs.has(f)) this.setFile(f, true);
        return;
      case 'rm':
        return this.rm(args);
      case 'cat':
        return this.cat(args);
      case 'test':
      case '[':
      case '[[':
        this.status = this.test(name === 'test' ? args : args.slice(0, -1)) ? 0 : 1;
        return;
      case 'date':
        this.emit(goDate(this.ctx.startTime + this.t));
        return;
      case 'hostname':
        this.emit(this.ctx.hostname);
        return;
      case 'env':
      case 'printenv':
        if (name === 'printenv' && args.length) {
          const v = this.vars[args[0]];
          if (v === undefined) this.status = 1;
          else this.emit(v);
          return;
        }
        for (const [k, v] of Object.entries(this.vars)) this.emit(`${k}=${v}`);
        return;
      case 'tail':
        if (args.some((a) => a === '-f' || a === '-F' || a === '--follow')) throw new End({ type: 'forever', at: this.t });
        return;
      case 'yes':
        throw new End({ type: 'loop', at: this.t, period: minLoopPeriodMs, events: [{ at: 0, type: 'out', text: args[0] ?? 'y' }] });
      case 'wget':
      case 'curl':
      case 'nslookup':
        if (this.net && !(this.ctx.internetStandIn && outsideTheCluster(name, args))) return this.networkTool(name, args, this.net);
        if (name !== 'nslookup') return this.fetch(name, args);
        this.advance(20);
        this.emit('Server:    10.96.0.10');
        this.emit('Address 1: 10.96.0.10 kube-dns.kube-system.svc.cluster.local');
        return;
      case 'dig':
        if (this.net && /(nicolaka\/netshoot|dnsutils)$/.test(this.ctx.ref.repository)) return this.dig(args, this.net);
        if (this.net) {
          this.emit(`sh: dig: not found`, 'stderr');
          this.status = 127;
        }
        return;
      case 'apk':
      case 'apt-get':
      case 'apt':
      case 'yum':
      case 'dnf':
      case 'pip':
      case 'pip3':
      case 'npm':
        this.advance(args.includes('install') || args.includes('add') || args.includes('update') ? 3000 : 200);
        return;
      case 'stress':
      case 'stress-ng':
        return this.stress(args);
      case 'pause':
        this.serves = true;
        this.sigterm = SigtermAction.Exit0;
        throw new End({ type: 'forever', at: this.t });
    }
    if (this.isServerCommand(name, argv)) return this.startServer();
    if (top) {
      // An unknown program given as the container's command: a server when the container declares ports,
      // else a short job that succeeds.
      if (this.ctx.declaresPorts) {
        this.serves = true;
        this.sigterm = SigtermAction.Exit143;
        throw new End({ type: 'forever', at: this.t });
      }
      this.advance(1000);
      this.sigterm = SigtermAction.Exit143;
      throw new End({ type: 'exit', at: this.t, code: 0 });
    }
    this.status = 0;
  }

  private isServerCommand(name: string, argv: string[]): boolean {
    if (this.ctx.image.serverCommands?.some((c) => basename(c) === name)) return true;
    if (knownServers.has(name)) return true;
    if ((name === 'python' || name === 'python3') && argv.includes('http.server')) return true;
    return false;
  }

  /** dig [+short] [+search] name: BIND 9.18's answer from the cluster DNS (no search list unless +search). */
  private dig(args: string[], net: PodNetwork): void {
    const name = args.find((a) => !a.startsWith('+') && !a.startsWith('-') && !a.startsWith('@')) ?? '.';
    const short = args.includes('+short');
    const search = args.includes('+search');
    const answer = net.lookup(search || name.endsWith('.') ? name : `${name}.`);
    this.advance(2);
    const fqdn = `${answer.found ? answer.fqdn : name.replace(/\.$/, '')}.`;
    this.status = 0;
    if (short) {
      if (answer.found) for (const ip of answer.addresses) this.emit(ip);
      return;
    }
    const count = answer.found ? answer.addresses.length : 0;
    const lines = [
      '',
      `; <<>> DiG 9.18.33 <<>> ${args.join(' ')}`,
      ';; global options: +cmd',
      ';; Got answer:',
      `;; ->>HEADER<<- opcode: QUERY, status: ${answer.found ? 'NOERROR' : 'NXDOMAIN'}, id: ${10000 + (this.calls.length * 7919) % 50000}`,
      `;; flags: qr aa rd; QUERY: 1, ANSWER: ${count}, AUTHORITY: ${answer.found ? 0 : 1}, ADDITIONAL: 1`,
      ';; WARNING: recursion requested but not available',
      '',
      ';; OPT PSEUDOSECTION:',
      '; EDNS: version: 0, flags:; udp: 1232',
      ';; QUESTION SECTION:',
      `;${fqdn}\t\tIN\tA`,
      '',
    ];
    if (answer.found) {
      lines.push(';; ANSWER SECTION:');
      for (const ip of answer.addresses) lines.push(`${fqdn}\t30\tIN\tA\t${ip}`);
    } else {
      lines.push(';; AUTHORITY SECTION:', 'cluster.local.\t\t30\tIN\tSOA\tns.dns.cluster.local. hostmaster.cluster.local. 1700000000 7200 1800 86400 30');
    }
    lines.push('', ';; Query time: 0 msec', ';; SERVER: 10.96.0.10#53(10.96.0.10) (UDP)', `;; WHEN: ${goDate(this.ctx.startTime + this.t)}`, `;; MSG SIZE  rcvd: ${60 + fqdn.length * 2}`, '');
    for (const line of lines) this.emit(line);
  }

  /** The image's server starting in the foreground. */
  startServer(): never {
    const image = this.ctx.image;
    if (image.startupLog === 'http-echo' && httpEchoText(this.argv) === undefined && !this.vars.ECHO_TEXT) {
      this.emit('Missing -text option!', 'stderr');
      throw new End({ type: 'exit', at: this.t, code: 127 });
    }
    const required = image.requiredEnv;
    if (required && !required.names.some((n) => (this.vars[n] ?? '') !== '')) {
      for (const line of required.log) this.emit(line, 'stderr');
      this.advance(300);
      throw new End({ type: 'exit', at: this.t, code: 1 });
    }
    this.advance(50);
    for (const line of startupLog(image, this.ctx.ref, this.ctx.startTime + this.t, this.argv)) this.emit(line);
    this.serves = true;
    this.sigterm = SigtermAction.Exit0;
    throw new End({ type: 'forever', at: this.t });
  }

  private sleep(args: string[]): void {
    let total = 0;
    for (const a of args) {
      if (a === 'infinity' || a === 'inf') throw new End({ type: 'forever', at: this.t });
      const m = /^(\d+(?:\.\d+)?)([smhd]?)$/.exec(a);
      if (!m) {
        this.emit(`sleep: invalid number '${a}'`, 'stderr');
        this.status = 1;
        return;
      }
      total += Number(m[1]) * ({ '': 1000, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as Record<string, number>)[m[2]];
    }
    if (this.t + total > horizonMs) throw new End({ type: 'forever', at: this.t });
    this.advance(Math.round(total));
    this.status = 0;
  }

  private echo(args: string[]): void {
    let newline = true;
    let escapes = false;
    while (args.length && /^-[neE]+$/.test(args[0])) {
      if (args[0].includes('n')) newline = false;
      if (args[0].includes('e')) escapes = true;
      args = args.slice(1);
    }
    let text = args.join(' ');
    if (escapes) text = text.replace(/\\n/g, '\n').replace(/\\t/g, '\t');
    for (const line of text.split('\n')) this.emit(line);
    void newline;
  }

  private printf(args: string[]): void {
    if (!args.length) return;
    let i = 1;
    const text = args[0]
      .replace(/%[-0-9.]*[sdif]/g, () => args[i++] ?? '')
      .replace(/\\n/g, '\n')
      .replace(/\\t/g, '\t');
    const lines = text.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    for (const line of lines) this.emit(line);
  }

  private rm(args: string[]): void {
    const force = args.some((a) => /^-[a-zA-Z]*f/.test(a));
    this.status = 0;
    for (const f of args.filter((a) => !a.startsWith('-'))) {
      if (!this.fileExists(f)) {
        if (!force) {
          this.emit(`rm: can't remove '${f}': No such file or directory`, 'stderr');
          this.status = 1;
        }
        continue;
      }
      this.setFile(f, false);
    }
  }

  private cat(args: string[]): void {
    this.status = 0;
    for (const f of args.filter((a) => !a.startsWith('-'))) {
      if (!this.fileExists(f)) {
        this.emit(`cat: can't open '${f}': No such file or directory`, 'stderr');
        this.status = 1;
        continue;
      }
      for (const line of this.fs.get(f)?.content ?? []) this.emit(line);
    }
  }

  private test(args: string[]): boolean {
    if (args[0] === '!') return !this.test(args.slice(1));
    if (args.length === 2) {
      const [op, v] = args;
      if (op === '-f' || op === '-e' || op === '-r' || op === '-s' || op === '-d') return this.fileExists(v);
      if (op === '-z') return v === '';
      if (op === '-n') return v !== '';
    }
    if (args.length === 3) {
      const [a, op, b] = args;
      if (op === '=' || op === '==') return a === b;
      if (op === '!=') return a !== b;
      const x = Number(a);
      const y = Number(b);
      if (op === '-eq') return x === y;
      if (op === '-ne') return x !== y;
      if (op === '-lt') return x < y;
      if (op === '-le') return x <= y;
      if (op === '-gt') return x > y;
      if (op === '-ge') return x >= y;
    }
    if (args.length === 1) return args[0] !== '';
    return true;
  }

  /** What a loop iteration may change: variables, files and the last status. */
  private stateKey(): string {
    return JSON.stringify([this.status, this.vars, [...this.fs]]);
  }

  /** curl, wget and nslookup over the simulated network (see network/tools.ts); absent from images that lack them. */
  private networkTool(name: string, args: string[], net: PodNetwork): void {
    if (!imageHasTool(this.ctx.ref, name)) {
      this.emit(`sh: ${name}: not found`, 'stderr');
      this.status = 127;
      return;
    }
    let out: ToolOutput & { saved?: { path: string; lines: string[] } };
    if (name === 'curl') {
      const oi = args.findIndex((a) => a === '-o' || a === '--output');
      out = curl(args, net);
      const file = oi >= 0 ? args[oi + 1] : undefined;
      if (file && file !== '-' && out.code === 0) this.setFile(file, true, []);
    } else if (name === 'wget') out = wget(args, net);
    else out = nslookup(args, net, isOldBusyboxNslookup(this.ctx.ref));
    if (out.saved) this.setFile(out.saved.path, true, out.saved.lines);
    this.advance(Math.max(1, Math.round(out.durationMs)));
    for (const line of out.stdout) this.emit(line);
    for (const line of out.stderr) this.emit(line, 'stderr');
    this.status = out.code;
  }

  private fetch(name: string, args: string[]): void {
    const url = args.find((a) => /^[a-z]+:\/\//.test(a) || (!a.startsWith('-') && a.includes('.'))) ?? '';
    const host = url.replace(/^[a-z]+:\/\//, '').split(/[/:]/)[0];
    const oi = args.findIndex((a) => a === '-O' || a === '-o');
    const file = oi >= 0 ? args[oi + 1] : undefined;
    this.advance(150);
    if (name === 'wget') {
      this.emit(`Connecting to ${host} (${host}:80)`, 'stderr');
      if (file && file !== '-') this.emit(`saving to '${file}'`, 'stderr');
      this.emit(`${file && file !== '-' ? basename(file) : 'index.html'}    100% |********************************|   646  0:00:00 ETA`, 'stderr');
      if (file && file !== '-') this.emit(`'${file}' saved`, 'stderr');
    }
    if (file && file !== '-') this.setFile(file, true, ['<html></html>']);
    this.status = 0;
  }

  private stress(args: string[]): void {
    const flag = (...names: string[]) => {
      const i = args.findIndex((a) => names.includes(a));
      return i >= 0 ? args[i + 1] : undefined;
    };
    const vm = Number(flag('--vm', '-m') ?? (args.some((a) => a.startsWith('--vm-bytes') || a.startsWith('-mem-total')) ? '1' : '0'));
    const bytes = parseStressBytes(flag('--vm-bytes') ?? flag('-mem-total') ?? (vm > 0 ? '256M' : '0'));
    const cpu = Number(flag('--cpu', '-c', '-cpus') ?? '0');
    this.emit(`stress: info: [1] dispatching hogs: ${cpu} cpu, 0 io, ${vm} vm, 0 hdd`);
    if (vm > 0 && bytes > 0) this.allocations.push({ at: this.t + 200, bytes: vm * bytes });
    const timeout = flag('--timeout', '-t');
    if (timeout) {
      this.sleep([timeout]);
      this.emit(`stress: info: [1] successful run completed in ${timeout.replace(/s$/, '')}s`);
      return;
    }
    this.sigterm = SigtermAction.Exit143;
    throw new End({ type: 'forever', at: this.t });
  }
}

function assignmentOnly(words: Word[]): boolean {
  return words.every((w) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(w.raw));
}

function literalCondition(list: List): boolean | undefined {
  if (list.items.length !== 1) return undefined;
  const { andOr } = list.items[0];
  if (andOr.rest.length || andOr.first.commands.length !== 1 || andOr.first.negate) return undefined;
  const cmd = andOr.first.commands[0];
  if (cmd.type !== 'simple' || cmd.words.length === 0) return undefined;
  const raw = cmd.words.map((w) => w.raw).join(' ');
  if (raw === 'true' || raw === ':' || raw === '[ 1 ]' || raw === '/bin/true') return true;
  if (raw === 'false' || raw === '/bin/false') return false;
  return undefined;
}

function basename(path: string): string {
  const i = path.lastIndexOf('/');
  return i >= 0 ? path.slice(i + 1) : path;
}

function toExitCode(s: string): number {
  const n = Number(s);
  return Number.isInteger(n) ? ((n % 256) + 256) % 256 : 2;
}

/** stress's byte sizes: a number with an optional B/K/M/G suffix, powers of 1024. */
export function parseStressBytes(s: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*([bkmgBKMG]|Mi|Gi|Ki)?$/.exec(s);
  if (!m) return 0;
  const unit = (m[2] ?? 'B').toUpperCase()[0];
  return Math.round(Number(m[1]) * ({ B: 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 } as Record<string, number>)[unit]);
}

function evalArithmetic(expr: string, vars: Record<string, string>): number {
  const substituted = expr.replace(/\$?([A-Za-z_][A-Za-z0-9_]*)/g, (_, n: string) => String(Number(vars[n] ?? 0) || 0));
  if (!/^[\d\s+\-*/%()]+$/.test(substituted)) return 0;
  // Only digits and arithmetic operators reach here.
  const tokens = substituted.match(/\d+|[+\-*/%()]/g) ?? [];
  let pos = 0;
  const primary = (): number => {
    const t = tokens[pos++];
    if (t === '(') {
      const v = sum();
      pos++;
      return v;
    }
    if (t === '-') return -primary();
    return Number(t ?? 0);
  };
  const product = (): number => {
    let v = primary();
    while (tokens[pos] === '*' || tokens[pos] === '/' || tokens[pos] === '%') {
      const op = tokens[pos++];
      const r = primary();
      v = op === '*' ? v * r : r === 0 ? 0 : op === '/' ? Math.trunc(v / r) : v % r;
    }
    return v;
  };
  const sum = (): number => {
    let v = product();
    while (tokens[pos] === '+' || tokens[pos] === '-') v = tokens[pos++] === '+' ? v + product() : v - product();
    return v;
  };
  return sum();
}

const weekdays = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** date(1) in busybox's default format: "Thu Jan  1 00:00:05 UTC 2026". */
export function goDate(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${weekdays[d.getUTCDay()]} ${months[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2, ' ')} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} UTC ${d.getUTCFullYear()}`;
}

/** The start-up lines an image's server logs. */
export function startupLog(image: ImageProfile, ref: ImageReference, at: number, argv: readonly string[] = []): string[] {
  const d = new Date(at);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const ymd = `${d.getUTCFullYear()}/${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())}`;
  const hms = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  const version = imageVersion(ref, image);
  switch (image.startupLog) {
    case 'nginx':
      return [
        '/docker-entrypoint.sh: /docker-entrypoint.d/ is not empty, will attempt to perform configuration',
        '/docker-entrypoint.sh: Looking for shell scripts in /docker-entrypoint.d/',
        '/docker-entrypoint.sh: Launching /docker-entrypoint.d/10-listen-on-ipv6-by-default.sh',
        '10-listen-on-ipv6-by-default.sh: info: Getting the checksum of /etc/nginx/conf.d/default.conf',
        '10-listen-on-ipv6-by-default.sh: info: Enabled listen on IPv6 in /etc/nginx/conf.d/default.conf',
        '/docker-entrypoint.sh: Sourcing /docker-entrypoint.d/15-local-resolvers.envsh',
        '/docker-entrypoint.sh: Launching /docker-entrypoint.d/20-envsubst-on-templates.sh',
        '/docker-entrypoint.sh: Launching /docker-entrypoint.d/30-tune-worker-processes.sh',
        '/docker-entrypoint.sh: Configuration complete; ready for start up',
        `${ymd} ${hms} [notice] 1#1: using the "epoll" event method`,
        `${ymd} ${hms} [notice] 1#1: nginx/${version}`,
        `${ymd} ${hms} [notice] 1#1: OS: Linux 6.8.0-kubeplay`,
        `${ymd} ${hms} [notice] 1#1: getrlimit(RLIMIT_NOFILE): 1048576:1048576`,
        `${ymd} ${hms} [notice] 1#1: start worker processes`,
        `${ymd} ${hms} [notice] 1#1: start worker process 29`,
      ];
    case 'redis': {
      const stamp = `${pad(d.getUTCDate())} ${months[d.getUTCMonth()]} ${d.getUTCFullYear()} ${hms}.${pad(d.getUTCMilliseconds(), 3)}`;
      return [
        `1:C ${stamp} # oO0OoO0OoO0Oo Redis is starting oO0OoO0OoO0Oo`,
        `1:C ${stamp} # Redis version=${version}, bits=64, commit=00000000, modified=0, pid=1, just started`,
        `1:M ${stamp} * Running mode=standalone, port=6379.`,
        `1:M ${stamp} * Server initialized`,
        `1:M ${stamp} * Ready to accept connections tcp`,
      ];
    }
    case 'httpd':
      return [
        "AH00558: httpd: Could not reliably determine the server's fully qualified domain name, using 10.244.0.1. Set the 'ServerName' directive globally to suppress this message",
        `[${weekdays[d.getUTCDay()]} ${months[d.getUTCMonth()]} ${pad(d.getUTCDate())} ${hms}.000000 ${d.getUTCFullYear()}] [mpm_event:notice] [pid 1:tid 1] AH00489: Apache/${version} (Unix) configured -- resuming normal operations`,
      ];
    case 'mysql':
      return [
        `${rfc3339(at)} 0 [System] [MY-015015] [Server] MySQL Server - start.`,
        `${rfc3339(at)} 1 [System] [MY-010931] [Server] /usr/sbin/mysqld: ready for connections. Version: '${version}'  socket: '/var/run/mysqld/mysqld.sock'  port: 3306  MySQL Community Server - GPL.`,
      ];
    case 'postgres':
      return [
        `${ymd.replace(/\//g, '-')} ${hms}.000 UTC [1] LOG:  starting PostgreSQL ${version} on x86_64-pc-linux-gnu`,
        `${ymd.replace(/\//g, '-')} ${hms}.000 UTC [1] LOG:  listening on IPv4 address "0.0.0.0", port 5432`,
        `${ymd.replace(/\//g, '-')} ${hms}.000 UTC [1] LOG:  database system is ready to accept connections`,
      ];
    case 'http-echo': {
      const listen = flagValue(argv, 'listen') ?? ':5678';
      return [`${ymd} ${hms} [INFO] server is listening on ${listen}`];
    }
    default:
      return [];
  }
}

/** A Go flag's value: -name=v, --name=v, -name v. */
function flagValue(argv: readonly string[], name: string): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const m = new RegExp(`^--?${name}=(.*)$`).exec(argv[i]);
    if (m) return m[1];
    if ((argv[i] === `-${name}` || argv[i] === `--${name}`) && i + 1 < argv.length) return argv[i + 1];
  }
  return undefined;
}

function httpEchoText(argv: readonly string[]): string | undefined {
  const text = flagValue(argv, 'text');
  return text === '' ? undefined : text;
}

/** The image's default process (no command, no args). */
function runImageDefault(it: Interpreter, ctx: ProgramContext): never {
  switch (ctx.image.run) {
    case ImageRun.Server:
      return it.startServer();
    case ImageRun.Hello:
      throw new End({ type: 'exit', at: 10, code: 0 });
    case ImageRun.Exit:
      throw new End({ type: 'exit', at: 0, code: 0 });
  }
}

const helloLines = [
  '',
  'Hello from Docker!',
  'This message shows that your installation appears to be working correctly.',
  '',
];

/** Interprets the container's process. */
export function runProgram(ctx: ProgramContext): ProgramRun {
  const it = new Interpreter(ctx);
  let end: ProgramEnd;
  try {
    if (ctx.imageDefault || !ctx.argv || ctx.argv.length === 0) {
      if (ctx.image.defaultCommand) {
        it.exec([...ctx.image.defaultCommand], true);
        throw new End({ type: 'exit', at: it.t, code: it.status });
      }
      if (ctx.image.run === ImageRun.Hello) for (const line of helloLines) it.events.push({ at: 10, type: 'out', text: line });
      runImageDefault(it, ctx);
    }
    it.exec(ctx.argv!, true);
    end = { type: 'exit', at: it.t, code: it.status };
  } catch (err) {
    if (!(err instanceof End)) throw err;
    end = err.end;
  }
  const events = it.events.length ? it.events.slice().sort((a, b) => a.at - b.at) : noneRecorded;
  const allocations = it.allocations.length ? it.allocations : noneRecorded;
  const network = ctx.network ? (it.calls.length ? it.calls : noneRecorded) : undefined;
  if (events === noneRecorded && allocations === noneRecorded && network !== it.calls && end.type === 'forever') {
    return quietRun(end.at, it.serves, it.sigterm, network !== undefined);
  }
  // One literal per shape: a member added by spread would cost the run a separate property array.
  return network
    ? { events, end, serves: it.serves, allocations, sigterm: it.sigterm, network }
    : { events, end, serves: it.serves, allocations, sigterm: it.sigterm };
}

/**
 * Runs that record nothing and then block (a server, `sleep infinity`, the pause container), shared: they differ
 * only in these few values, and a run lives as long as its container. Frozen: nothing changes a finished run.
 */
const quietRuns = new Map<string, ProgramRun>();

function quietRun(at: number, serves: boolean, sigterm: SigtermAction, withNetwork: boolean): ProgramRun {
  const key = `${at}|${serves}|${sigterm}|${withNetwork}`;
  let run = quietRuns.get(key);
  if (!run) {
    const end: ProgramEnd = Object.freeze({ type: 'forever', at });
    run = Object.freeze(
      withNetwork
        ? { events: noneRecorded, end, serves, allocations: noneRecorded, sigterm, network: noneRecorded }
        : { events: noneRecorded, end, serves, allocations: noneRecorded, sigterm },
    );
    // A cache of a few shapes; the start offsets of blocking programs vary little.
    if (quietRuns.size >= 256) quietRuns.clear();
    quietRuns.set(key, run);
  }
  return run;
}

/**
 * The empty list of a run that recorded nothing of a kind. A run lives as long as its container, and most
 * containers' programs (a server that starts and serves) record no events, allocations or network calls: they
 * share this one instead of holding three empty arrays each. Frozen: nothing adds to a finished run.
 */
const noneRecorded = Object.freeze([]) as never[];

/** The answer the journal last recorded for call. */
export function lastAnswer(calls: readonly NetworkCallRecord[], call: NetworkCall): DnsAnswer | TrafficResult | undefined {
  const key = JSON.stringify(call);
  for (let i = calls.length - 1; i >= 0; i--) if (JSON.stringify(calls[i].call) === key) return calls[i].answer;
  return undefined;
}

/** What decides a program's course in an answer (not the trace sequence or which hops it took). */
export function answerKey(answer: DnsAnswer | TrafficResult | undefined): string {
  if (!answer) return '';
  if ('found' in answer) return JSON.stringify(answer.found ? [true, answer.addresses] : [false]);
  return JSON.stringify([answer.ok, answer.status ?? null, answer.body ?? null, answer.error ?? null]);
}

function dedupeCalls(calls: NetworkCall[]): NetworkCall[] {
  const seen = new Map<string, NetworkCall>();
  for (const c of calls) seen.set(JSON.stringify(c), c);
  return [...seen.values()];
}

// Common public top-level domains: a name under one is on the internet, not in the cluster.
const publicTlds = new Set([
  'com', 'org', 'net', 'io', 'dev', 'app', 'info', 'edu', 'gov', 'co', 'me', 'sh', 'ai', 'cloud', 'ch', 'de', 'uk', 'fr', 'nl',
  'eu', 'us', 'jp', 'cn', 'ru', 'in', 'br', 'au', 'ca', 'it', 'es', 'se', 'no', 'fi', 'pl', 'cz', 'at', 'be', 'dk', 'kr', 'tv',
]);

/** Whether the tool's target is a public internet name (the start-up stand-in answers those). */
function outsideTheCluster(tool: string, args: string[]): boolean {
  const target =
    tool === 'nslookup'
      ? args.find((a) => !a.startsWith('-'))
      : (args.find((a) => /^[a-z]+:\/\//i.test(a)) ?? args.find((a, i) => !a.startsWith('-') && !/^-[a-zA-Z]*[oO]$/.test(args[i - 1] ?? '') && a.includes('.')));
  if (!target) return false;
  const host = target.replace(/^[a-z]+:\/\//i, '').split(/[/:?#]/)[0].replace(/\.$/, '').toLowerCase();
  const labels = host.split('.');
  return labels.length >= 2 && publicTlds.has(labels[labels.length - 1]);
}

/** argv as a one-command list (exported for probes, which run exec-form commands). */
export { argvCommand };

/** The state of the files the program touched, at offset `at`: a path absent from the map was never touched. */
export function filesAt(run: ProgramRun, at: number): Map<string, boolean> {
  const out = new Map<string, boolean>();
  for (const e of run.events) {
    if (e.at > at) break;
    if (e.type === 'file') out.set(e.path, e.exists);
  }
  if ((run.end.type === 'loop' || run.end.type === 'poll') && at >= run.end.at) {
    const elapsed = at - run.end.at;
    const within = elapsed % run.end.period;
    const completed = Math.floor(elapsed / run.end.period);
    for (const e of run.end.events) {
      if (e.type !== 'file') continue;
      if (completed > 0 || e.at <= within) out.set(e.path, e.exists);
    }
  }
  return out;
}

/** Every file path the program creates or removes at some point (a probe on one of them depends on time). */
export function touchedFiles(run: ProgramRun): Map<string, boolean> {
  const first = new Map<string, boolean>();
  const all = run.end.type === 'loop' || run.end.type === 'poll' ? [...run.events, ...run.end.events] : run.events;
  for (const e of all) if (e.type === 'file' && !first.has(e.path)) first.set(e.path, e.exists);
  return first;
}

/** Log lines up to offset `at` (with their offsets), at most `limit` of the latest. */
export function outputUntil(run: ProgramRun, at: number, limit: number): { at: number; text: string }[] {
  const out: { at: number; text: string }[] = [];
  for (const e of run.events) {
    if (e.at > at) break;
    if (e.type === 'out') out.push({ at: e.at, text: e.text });
  }
  if ((run.end.type === 'loop' || run.end.type === 'poll') && at >= run.end.at) {
    const { period, events } = run.end;
    const lines = events.filter((e) => e.type === 'out');
    if (lines.length > 0) {
      const iterations = Math.floor((at - run.end.at) / period) + 1;
      const needed = Math.ceil(limit / lines.length) + 1;
      for (let k = Math.max(0, iterations - needed); k < iterations; k++) {
        const base = run.end.at + k * period;
        for (const e of lines) if (base + e.at <= at) out.push({ at: base + e.at, text: (e as { text: string }).text });
      }
    }
  }
  return out.length > limit ? out.slice(out.length - limit) : out;
}

/** Runs an exec probe's (or preStop hook's) command against the container's files at `at`. */
export function runExecCommand(
  command: readonly string[],
  ctx: ProgramContext,
  files: Map<string, boolean>,
): { code: number; output: string; durationMs: number } {
  // A command run beside the process asks the network afresh (no journal) and has no internet stand-in.
  const { networkJournal: _journal, internetStandIn: _standIn, ...base } = ctx;
  const probeCtx: ProgramContext = { ...base, argv: [...command], imageDefault: false, declaresPorts: false };
  const it = new Interpreter(probeCtx);
  it.seedFiles(files);
  let code: number;
  try {
    it.runList(argvCommand(command));
    code = it.status;
  } catch (err) {
    if (!(err instanceof End)) throw err;
    code = err.end.type === 'exit' ? err.end.code : 0;
  }
  const output = it.events.filter((e) => e.type === 'out').map((e) => (e as { text: string }).text).join('\n');
  return { code, output, durationMs: it.t };
}

