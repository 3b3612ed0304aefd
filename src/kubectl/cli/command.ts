// The shape every kubectl command has in kubeplay: a spec (its path, flags, usage texts as kubectl v1.32 prints
// them) and a run function over a KubectlEnv. The command tree, flag parsing (pflag semantics), help and usage
// errors live in src/kubectl/cli/ (the CLI core); each command lives in src/kubectl/cmd/<name>.ts.
//
//   export const getCommand: CommandSpec = {
//     path: ['get'], use: 'get [(-o|--output=)json|yaml|name|go-template|...] (TYPE[.VERSION][.GROUP] ...) ...',
//     short: 'Display one or many resources', flags: [outputFlag, labelSelectorFlag, ...],
//     run: (env, args, flags, io) => { ...; io.stdout('NAME   READY   STATUS ...'); return 0; },
//   };
import type { ResourceRegistry } from '../../shared/api/resources';
import type { UserInfo } from '../../shared/api/request';
import type { Client } from '../../control-plane/client/client';
import type { Clock } from '../../control-plane/sim/clock';

export type FlagType = 'bool' | 'string' | 'int' | 'duration' | 'stringArray' | 'stringSlice';

export interface FlagSpec {
  /** Long name without dashes: "output". */
  name: string;
  /** One-letter shorthand: "o". */
  shorthand?: string;
  type: FlagType;
  /** The default as kubectl shows it in --help ("[]", "false", "-1", "''" are rendered by the help printer). */
  default?: string | number | boolean | string[];
  usage: string;
  /**
   * pflag's NoOptDefVal: the value when the flag is given bare (`--cascade` → "background"); such a flag never
   * takes the next word as its value. Bool flags have "true".
   */
  noOptDefault?: string;
  /** Hidden flags parse but are not listed in --help. */
  hidden?: boolean;
}

export type FlagValue = string | number | boolean | string[];

/**
 * The parsed flags of one invocation: every flag of the command (and the global ones) with its value or default.
 * Values by type: bool → boolean, string → string, int → number, duration → number of MILLISECONDS (a duration
 * default may be written as Go text, '20s', or as milliseconds), stringArray/stringSlice → string[].
 */
export interface FlagValues {
  get<T extends FlagValue = FlagValue>(name: string): T | undefined;
  /** Whether the user gave it (pflag's Changed). */
  changed(name: string): boolean;
  /** How many positional args came before `--` (cobra's ArgsLenAtDash; exec, create deployment -- CMD), -1 if none. */
  readonly argsLenAtDash?: number;
}

/** Where a command writes. Lines may be written as the command runs (watches, logs -f, rollout status). */
export interface CommandIO {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** Ctrl+C: a long-running command (get -w, logs -f, rollout status) stops when it fires. */
export interface CancelSignal {
  readonly cancelled: boolean;
  onCancel(fn: () => void): void;
}

/** The part of ~/.kube/config kubeplay keeps (per page, persisted by the page). */
export interface KubeConfig {
  currentContext: string;
  contexts: { name: string; cluster: string; user: string; namespace?: string }[];
}

/** What a command runs against: the cluster as the current user, through the API server's network endpoint. */
export interface KubectlEnv {
  /** The current user's client (impersonating when --as is given), through the API server's endpoint. */
  client: Client;
  clock: Clock;
  registry: ResourceRegistry;
  user: UserInfo;
  /** The namespace in effect: -n, else the context's, else "default". */
  namespace: string;
  /** Whether -n/--namespace was given explicitly (kubectl's enforceNamespace). */
  namespaceExplicit: boolean;
  kubeconfig: KubeConfig;
  /** Replaces the kubeconfig (config set-context, use-context): the page persists it. */
  setKubeconfig(config: KubeConfig): void;
  /** stdin (`-f -` or a pasted heredoc), when the command line had one. */
  stdin?: string;
  /** The page's editor buffer, for `apply -f` / `create -f` with the name "editor" or no file, when available. */
  editorBuffer?: string;
  /** Files -f may name besides "-" and "editor" (the page's samples gallery as `samples/<id>.yaml`). */
  files?: Readonly<Record<string, string>>;
  /** Opens YAML in the page's editor (kubectl edit): resolves with the edited text, or undefined if cancelled. */
  openEditor?(yaml: string, title: string): Promise<string | undefined>;
  signal: CancelSignal;
  /** Simulated-machine access for logs/exec/top (undefined in a bare API-server cluster). */
  nodes?: KubectlNodes;
}

/** What logs, exec and top need of the simulated machines (the kubelet's API, which kubectl reaches through the API server). */
export interface KubectlNodes {
  /** Container log lines (kubelet /containerLogs), or an error text. */
  logs(namespace: string, pod: string, container: string | undefined, options: { previous?: boolean; tailLines?: number; timestamps?: boolean }): { lines: string[] } | { error: string };
  /** Follows a container's log until cancelled; returns a stop function. */
  followLogs?(namespace: string, pod: string, container: string | undefined, onLine: (line: string) => void, onEnd: () => void): () => void;
  /** Runs a command in a container (kubelet /exec): its output and exit code, or an error text. */
  exec?(namespace: string, pod: string, container: string | undefined, argv: string[]): { stdout: string; stderr: string; exitCode: number } | { error: string };
  /** Simulated usage (metrics-server): millicores and bytes per node and per pod container. */
  usage?(): { nodes: { name: string; cpuMillis: number; memoryBytes: number }[]; pods: { namespace: string; name: string; containers: { name: string; cpuMillis: number; memoryBytes: number }[] }[] };
}

export interface CommandSpec {
  /** ["get"], ["rollout", "status"], ["config", "set-context"], ["create", "deployment"]. */
  path: string[];
  aliases?: string[];
  /**
   * cobra's Use line, e.g. "scale [--resource-version=version] [--current-replicas=count] --replicas=COUNT (-f FILENAME | TYPE NAME)".
   * Help prints "Usage:\n  kubectl <parent path> <use> [options]" (a leading "kubectl …" and a trailing " [options]"
   * copied from --help output are tolerated).
   */
  use: string;
  /**
   * cobra appends " [flags]" to the usage line unless the command sets DisableFlagsInUseLine, as most kubectl
   * commands do: true for those whose --help shows "[flags] [options]" (get, version, api-resources, rollout status…).
   * Writing "[flags]" in `use` has the same effect.
   */
  flagsInUseLine?: boolean;
  short: string;
  long?: string;
  /** The Examples section as --help prints it (each line indented two spaces; unindented text gets indented). */
  example?: string;
  /** The command's own flags (not the global ones: src/kubectl/cli/global-flags.ts adds those, and --help). */
  flags: FlagSpec[];
  /** Exit code: 0 success, 1 error (kubectl's). Long-running commands resolve when done or cancelled. */
  run(env: KubectlEnv, args: string[], flags: FlagValues, io: CommandIO): number | Promise<number>;
}
