// kubectl's global flags (`kubectl options`): every command accepts them. kubeplay acts on --namespace, --as,
// --as-group, --context and --request-timeout; the connection and logging ones are accepted and have no effect
// (there is one API server, reached in-process), as a learner's copied command line should still run.
import type { FlagSpec } from './command';

export const globalFlags: FlagSpec[] = [
  { name: 'as', type: 'string', default: '', usage: 'Username to impersonate for the operation. User could be a regular user or a service account in a namespace.' },
  { name: 'as-group', type: 'stringArray', default: [], usage: 'Group to impersonate for the operation, this flag can be repeated to specify multiple groups.' },
  { name: 'as-uid', type: 'string', default: '', usage: 'UID to impersonate for the operation.' },
  { name: 'cache-dir', type: 'string', default: '/home/user/.kube/cache', usage: 'Default cache directory' },
  { name: 'certificate-authority', type: 'string', default: '', usage: 'Path to a cert file for the certificate authority' },
  { name: 'client-certificate', type: 'string', default: '', usage: 'Path to a client certificate file for TLS' },
  { name: 'client-key', type: 'string', default: '', usage: 'Path to a client key file for TLS' },
  { name: 'cluster', type: 'string', default: '', usage: 'The name of the kubeconfig cluster to use' },
  { name: 'context', type: 'string', default: '', usage: 'The name of the kubeconfig context to use' },
  { name: 'disable-compression', type: 'bool', default: false, usage: 'If true, opt-out of response compression for all requests to the server' },
  {
    name: 'insecure-skip-tls-verify',
    type: 'bool',
    default: false,
    usage: "If true, the server's certificate will not be checked for validity. This will make your HTTPS connections insecure",
  },
  { name: 'kubeconfig', type: 'string', default: '', usage: 'Path to the kubeconfig file to use for CLI requests.' },
  { name: 'log-flush-frequency', type: 'duration', default: '5s', usage: 'Maximum number of seconds between log flushes' },
  { name: 'match-server-version', type: 'bool', default: false, usage: 'Require server version to match client version' },
  { name: 'namespace', shorthand: 'n', type: 'string', default: '', usage: 'If present, the namespace scope for this CLI request' },
  { name: 'password', type: 'string', default: '', usage: 'Password for basic authentication to the API server' },
  { name: 'profile', type: 'string', default: 'none', usage: 'Name of profile to capture. One of (none|cpu|heap|goroutine|threadcreate|block|mutex)' },
  { name: 'profile-output', type: 'string', default: 'profile.pprof', usage: 'Name of the file to write the profile to' },
  {
    name: 'request-timeout',
    type: 'string',
    default: '0',
    usage:
      "The length of time to wait before giving up on a single server request. Non-zero values should contain a corresponding time unit (e.g. 1s, 2m, 3h). A value of zero means don't timeout requests.",
  },
  { name: 'server', shorthand: 's', type: 'string', default: '', usage: 'The address and port of the Kubernetes API server' },
  {
    name: 'tls-server-name',
    type: 'string',
    default: '',
    usage: 'Server name to use for server certificate validation. If it is not provided, the hostname used to contact the server is used',
  },
  { name: 'token', type: 'string', default: '', usage: 'Bearer token for authentication to the API server' },
  { name: 'user', type: 'string', default: '', usage: 'The name of the kubeconfig user to use' },
  { name: 'username', type: 'string', default: '', usage: 'Username for basic authentication to the API server' },
  { name: 'v', shorthand: 'v', type: 'int', default: 0, usage: 'number for the log level verbosity' },
  {
    name: 'warnings-as-errors',
    type: 'bool',
    default: false,
    usage: 'Treat warnings received from the server as errors and exit with a non-zero exit code',
  },
];
