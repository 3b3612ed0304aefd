// The simulated registry: which image references pull, which fail and how, and what a pulled image is (size,
// digest, what its default entrypoint does). Every image pulls except the classic mistakes, which fail with the
// texts containerd 1.7 gives the kubelet:
//   - a tag that does not exist for a well-known image ("nginx:1.999")     → NotFound
//   - an unknown or misspelt official image ("ngnix", "my-app")             → pull access denied
//   - a registry host that does not resolve ("my-registry.example.com/app")  → no such host
// The tables list each well-known image's real release lines; a tag is a known version, a prefix of one
// ("1", "1.27"), a named tag ("latest", "alpine"), optionally with a variant suffix ("-alpine").
import { hexDigest, unitHash } from './hash';

/** What the image's default entrypoint does when the container gives no command. */
export const ImageRun = {
  /** A long-running server (nginx, redis…): stays up, serves its ports, exits 0 promptly on SIGTERM. */
  Server: 'server',
  /** A shell or runtime REPL (busybox, alpine, ubuntu, python…): without a terminal it exits 0 at once. */
  Exit: 'exit',
  /** Prints a greeting and exits 0 (hello-world). */
  Hello: 'hello',
} as const;
export type ImageRun = (typeof ImageRun)[keyof typeof ImageRun];

export interface ImageProfile {
  /** Normalised repository: "docker.io/library/nginx". */
  repository: string;
  /** Latest release of each line ("1.27.5"): the tag may be it or any earlier version of that line. */
  versions?: string[];
  /** Tags that are names, not versions. */
  named?: string[];
  /** Variant suffixes a version or named tag may carry ("-alpine"). */
  suffixes?: string[];
  /** Accept any tag (images whose tags are not tabulated). */
  anyTag?: boolean;
  sizeBytes: number;
  /** Ports the default entrypoint serves. */
  ports: number[];
  run: ImageRun;
  /** Resident memory of the default process. */
  memoryBytes: number;
  /** ENTRYPOINT: what args are appended to when the container gives args but no command. */
  entrypoint?: string[];
  /** Executables (basenames) that start this image's server when given as the command. */
  serverCommands?: string[];
  /** Log lines of the server's start-up ("nginx", "redis", "httpd", or generic). */
  startupLog?: 'nginx' | 'redis' | 'httpd' | 'mysql' | 'postgres' | 'http-echo' | 'generic';
  /**
   * An ENTRYPOINT script that runs its arguments when the first names a command and otherwise hands them to this
   * program (curlimages/curl's /entrypoint.sh: `args: [-s, http://web]` runs `curl -s http://web`).
   */
  entrypointDispatch?: string;
  /** What runs with neither command nor args (ENTRYPOINT + CMD), when the interpreter knows it. */
  defaultCommand?: string[];
  /** The server refuses to start unless one of these env vars is set (mysql, postgres). */
  requiredEnv?: { names: string[]; log: string[] };
}

const Mi = 1024 * 1024;
const MB = 1_000_000;

const server = (
  repository: string,
  sizeMB: number,
  ports: number[],
  memoryMi: number,
  extra: Partial<ImageProfile> = {},
): ImageProfile => ({ repository, sizeBytes: Math.round(sizeMB * MB), ports, run: ImageRun.Server, memoryBytes: memoryMi * Mi, startupLog: 'generic', ...extra });

const exiting = (repository: string, sizeMB: number, extra: Partial<ImageProfile> = {}): ImageProfile => ({
  repository,
  sizeBytes: Math.round(sizeMB * MB),
  ports: [],
  run: ImageRun.Exit,
  memoryBytes: 1 * Mi,
  ...extra,
});

const lib = (name: string) => `docker.io/library/${name}`;

/** Images whose tags are known. */
const wellKnown: ImageProfile[] = [
  server(lib('nginx'), 68.9, [80], 5, {
    versions: [
      '1.9.15', '1.10.3', '1.11.13', '1.12.2', '1.13.12', '1.14.2', '1.15.12', '1.16.1', '1.17.10', '1.18.0', '1.19.10',
      '1.20.2', '1.21.6', '1.22.1', '1.23.4', '1.24.0', '1.25.5', '1.26.3', '1.27.5', '1.28.0', '1.29.1',
    ],
    named: ['latest', 'stable', 'mainline', 'alpine', 'alpine-slim', 'perl', 'bookworm', 'alpine-perl', 'otel', 'stable-alpine', 'mainline-alpine'],
    suffixes: ['-alpine', '-alpine-slim', '-perl', '-alpine-perl', '-bookworm', '-bullseye', '-otel'],
    serverCommands: ['nginx', 'nginx-debug', '/docker-entrypoint.sh'],
    startupLog: 'nginx',
  }),
  exiting(lib('busybox'), 4.27, {
    versions: ['1.24.2', '1.25.1', '1.26.2', '1.27.2', '1.28.4', '1.29.3', '1.30.1', '1.31.1', '1.32.1', '1.33.1', '1.34.1', '1.35.0', '1.36.1', '1.37.0'],
    named: ['latest', 'stable', 'unstable', 'musl', 'glibc', 'uclibc'],
    suffixes: ['-musl', '-glibc', '-uclibc'],
  }),
  exiting(lib('alpine'), 7.8, {
    versions: ['3.1.4', '3.2.3', '3.3.3', '3.4.6', '3.5.3', '3.6.5', '3.7.3', '3.8.5', '3.9.6', '3.10.9', '3.11.13', '3.12.12', '3.13.12', '3.14.10', '3.15.11', '3.16.9', '3.17.10', '3.18.12', '3.19.8', '3.20.7', '3.21.4', '3.22.1'],
    named: ['latest', 'edge'],
  }),
  exiting(lib('ubuntu'), 78.1, {
    named: ['latest', 'rolling', 'devel', 'noble', 'jammy', 'focal', 'bionic', 'xenial', 'trusty', 'oracular', 'plucky', '24.04', '22.04', '20.04', '18.04', '16.04', '14.04', '24.10', '25.04'],
  }),
  exiting(lib('debian'), 117, {
    versions: ['7.11', '8.11', '9.13', '10.13', '11.11', '12.11', '13.0'],
    named: ['latest', 'stable', 'oldstable', 'testing', 'unstable', 'sid', 'trixie', 'bookworm', 'bullseye', 'buster', 'stretch', 'stable-slim', 'oldstable-slim', 'testing-slim'],
    suffixes: ['-slim', '-backports'],
  }),
  server(lib('redis'), 117, [6379], 3, {
    versions: ['2.6.17', '2.8.23', '3.0.7', '3.2.12', '4.0.14', '5.0.14', '6.0.20', '6.2.18', '7.0.15', '7.2.9', '7.4.4', '8.0.2'],
    named: ['latest', 'alpine', 'bookworm'],
    suffixes: ['-alpine', '-bookworm', '-bullseye', '-alpine3.21', '-alpine3.22'],
    serverCommands: ['redis-server', 'docker-entrypoint.sh'],
    startupLog: 'redis',
  }),
  server(lib('mysql'), 603, [3306, 33060], 360, {
    versions: ['5.5.62', '5.6.51', '5.7.44', '8.0.42', '8.1.0', '8.2.0', '8.3.0', '8.4.5', '9.0.1', '9.1.0', '9.2.0', '9.3.0'],
    named: ['latest', 'lts', 'innovation', 'oracle', 'debian'],
    suffixes: ['-debian', '-oracle', '-oraclelinux8', '-oraclelinux9'],
    serverCommands: ['mysqld', 'docker-entrypoint.sh'],
    startupLog: 'mysql',
    requiredEnv: {
      names: ['MYSQL_ROOT_PASSWORD', 'MYSQL_ALLOW_EMPTY_PASSWORD', 'MYSQL_RANDOM_ROOT_PASSWORD'],
      log: [
        '[Entrypoint]: Entrypoint script for MySQL Server started.',
        '[Entrypoint]: ERROR: Database is uninitialized and password option is not specified',
        '    You need to specify one of the following as an environment variable:',
        '    - MYSQL_ROOT_PASSWORD',
        '    - MYSQL_ALLOW_EMPTY_PASSWORD',
        '    - MYSQL_RANDOM_ROOT_PASSWORD',
      ],
    },
  }),
  server(lib('postgres'), 438, [5432], 25, {
    versions: ['9.6.24', '10.23', '11.22', '12.22', '13.21', '14.18', '15.13', '16.9', '17.5'],
    named: ['latest', 'alpine', 'bookworm', 'bullseye'],
    suffixes: ['-alpine', '-bookworm', '-bullseye', '-alpine3.21', '-alpine3.22'],
    serverCommands: ['postgres', 'docker-entrypoint.sh'],
    startupLog: 'postgres',
    requiredEnv: {
      names: ['POSTGRES_PASSWORD', 'POSTGRES_HOST_AUTH_METHOD'],
      log: [
        'Error: Database is uninitialized and superuser password is not specified.',
        '       You must specify POSTGRES_PASSWORD to a non-empty value for the',
        '       superuser. For example, "-e POSTGRES_PASSWORD=password" on "docker run".',
      ],
    },
  }),
  server(lib('httpd'), 148, [80], 6, {
    versions: ['2.2.34', '2.4.63'],
    named: ['latest', 'alpine', 'bookworm'],
    suffixes: ['-alpine', '-bookworm', '-alpine3.21'],
    serverCommands: ['httpd', 'httpd-foreground'],
    startupLog: 'httpd',
  }),
  exiting(lib('node'), 1100, {
    versions: [
      '0.10.48', '0.12.18', '4.9.1', '5.12.0', '6.17.1', '7.10.1', '8.17.0', '9.11.2', '10.24.1', '11.15.0', '12.22.12', '13.14.0',
      '14.21.3', '15.14.0', '16.20.2', '17.9.1', '18.20.8', '19.9.0', '20.19.2', '21.7.3', '22.16.0', '23.11.1', '24.2.0',
    ],
    named: ['latest', 'lts', 'current', 'alpine', 'slim', 'bookworm', 'bullseye', 'lts-alpine', 'lts-slim', 'current-alpine', 'current-slim', 'iron', 'jod', 'hydrogen', 'gallium'],
    suffixes: ['-alpine', '-slim', '-bookworm', '-bullseye', '-bookworm-slim', '-bullseye-slim', '-alpine3.21', '-alpine3.22'],
  }),
  exiting(lib('python'), 1020, {
    versions: ['2.7.18', '3.5.10', '3.6.15', '3.7.17', '3.8.20', '3.9.23', '3.10.18', '3.11.13', '3.12.11', '3.13.5'],
    named: ['latest', 'slim', 'alpine', 'bookworm', 'bullseye', 'slim-bookworm'],
    suffixes: ['-slim', '-alpine', '-bookworm', '-bullseye', '-slim-bookworm', '-slim-bullseye', '-alpine3.21', '-alpine3.22'],
  }),
  exiting(lib('golang'), 852, {
    versions: ['1.10.8', '1.11.13', '1.12.17', '1.13.15', '1.14.15', '1.15.15', '1.16.15', '1.17.13', '1.18.10', '1.19.13', '1.20.14', '1.21.13', '1.22.12', '1.23.10', '1.24.4'],
    named: ['latest', 'alpine', 'bookworm', 'bullseye'],
    suffixes: ['-alpine', '-bookworm', '-bullseye', '-alpine3.21', '-alpine3.22'],
  }),
  server(lib('memcached'), 84, [11211], 2, {
    versions: ['1.4.39', '1.5.22', '1.6.38'],
    named: ['latest', 'alpine', 'bookworm'],
    suffixes: ['-alpine', '-bookworm'],
    serverCommands: ['memcached'],
  }),
  server(lib('mongo'), 834, [27017], 80, {
    versions: ['3.6.23', '4.0.28', '4.2.24', '4.4.29', '5.0.31', '6.0.24', '7.0.21', '8.0.10'],
    named: ['latest', 'jammy', 'noble'],
    suffixes: ['-jammy', '-noble', '-focal'],
    serverCommands: ['mongod', 'docker-entrypoint.sh'],
  }),
  server('registry.k8s.io/pause', 0.32, [], 0.25, { versions: ['3.1', '3.2', '3.3', '3.4.1', '3.5', '3.6', '3.7', '3.8', '3.9', '3.10'], named: ['latest'], serverCommands: ['/pause'], startupLog: undefined }),
  server('registry.k8s.io/hpa-example', 181, [80], 12, { named: ['latest'], startupLog: 'httpd' }),
  exiting('registry.k8s.io/busybox', 1.14, { versions: ['1.24', '1.27.2'], named: ['latest'] }),
  server('registry.k8s.io/nginx-slim', 26, [80], 4, { versions: ['0.27'], serverCommands: ['nginx'], startupLog: 'nginx' }),
  server('registry.k8s.io/kubernetes-zookeeper', 98, [2181, 2888, 3888], 120, { named: ['1.0-3.4.10'] }),
  server('registry.k8s.io/e2e-test-images/agnhost', 49, [8080], 8, { versions: ['2.53'] }),
  server('gcr.io/google-samples/hello-app', 10.5, [8080], 4, { versions: ['1.0', '2.0'] }),
  server('us-docker.pkg.dev/google-samples/containers/gke/hello-app', 10.5, [8080], 4, { versions: ['1.0', '2.0'] }),
  server('gcr.io/google-samples/kubernetes-bootcamp', 79, [8080], 20, { named: ['v1'] }),
  server('docker.io/polinux/stress', 4.5, [], 1, { named: ['latest', '1.0.4'] }),
  // The echo server of the Ingress and Service docs: serves -text on :5678 (-listen), exits 127 without it.
  server('docker.io/hashicorp/http-echo', 3.6, [5678], 2, {
    versions: ['0.2.3', '1.0.0'],
    named: ['latest', 'alpine'],
    entrypoint: ['/http-echo'],
    serverCommands: ['http-echo'],
    startupLog: 'http-echo',
  }),
  // curl and busybox's applets; its entrypoint runs curl (no server): with no args, curl's usage hint and exit 2.
  exiting('docker.io/curlimages/curl', 24, { anyTag: true, entrypoint: ['/entrypoint.sh'], entrypointDispatch: 'curl', defaultCommand: ['/entrypoint.sh', 'curl'] }),
  // The network troubleshooting image: curl, nslookup, dig… and zsh as its command (no terminal: exits 0).
  exiting('docker.io/nicolaka/netshoot', 190, { anyTag: true, memoryBytes: 3 * Mi }),
  server('docker.io/vish/stress', 2.9, [], 1, { named: ['latest'], entrypoint: ['/stress', '-logtostderr'] }),
  { repository: lib('hello-world'), sizeBytes: 9_000, ports: [], run: ImageRun.Hello, memoryBytes: Mi, named: ['latest', 'linux', 'nanoserver'] },
];

/** Official images whose tags are not tabulated: any tag pulls. */
const otherOfficialServers: Record<string, number[]> = {
  rabbitmq: [5672, 15672], haproxy: [80], traefik: [80], caddy: [80, 443], wordpress: [80], tomcat: [8080], jetty: [8080],
  elasticsearch: [9200], kibana: [5601], mariadb: [3306], cassandra: [9042], couchdb: [5984], influxdb: [8086], neo4j: [7474],
  zookeeper: [2181], nats: [4222], consul: [8500], vault: [8200], registry: [5000], ghost: [2368], nextcloud: [80], sonarqube: [9000],
  solr: [8983], kong: [8000], 'eclipse-mosquitto': [1883], adminer: [8080], drupal: [80], joomla: [80], redmine: [3000], odoo: [8069],
  percona: [3306], 'php-zendserver': [80], varnish: [80], telegraf: [], logstash: [5044], flink: [8081], storm: [6627],
};
const otherOfficialExiting = [
  'perl', 'bash', 'ruby', 'openjdk', 'eclipse-temurin', 'amazoncorretto', 'ibmjava', 'sapmachine', 'gcc', 'rust', 'centos', 'fedora',
  'amazonlinux', 'rockylinux', 'almalinux', 'oraclelinux', 'archlinux', 'php', 'erlang', 'elixir', 'haskell', 'julia', 'swift', 'dart',
  'groovy', 'gradle', 'maven', 'buildpack-deps', 'composer', 'clojure', 'pypy', 'r-base', 'docker', 'photon', 'clearlinux', 'mono',
  'jruby', 'hylang', 'irssi', 'hitch', 'neurodebian', 'bonita', 'spiped', 'clefos', 'crux', 'mageia', 'sl', 'busybox-glibc',
];

const profilesByRepository = new Map<string, ImageProfile>();
for (const p of wellKnown) profilesByRepository.set(p.repository, p);
for (const [name, ports] of Object.entries(otherOfficialServers)) {
  profilesByRepository.set(lib(name), server(lib(name), 250, ports, 64, { anyTag: true }));
}
for (const name of otherOfficialExiting) profilesByRepository.set(lib(name), exiting(lib(name), 300, { anyTag: true }));
// k8s.gcr.io redirects to registry.k8s.io.
for (const p of wellKnown) {
  if (p.repository.startsWith('registry.k8s.io/')) profilesByRepository.set(p.repository.replace('registry.k8s.io/', 'k8s.gcr.io/'), p);
}

/** Registries that exist: their hosts resolve and any repository the table does not know pulls. */
const knownRegistryHosts = [
  /^docker\.io$/, /^registry-1\.docker\.io$/, /^index\.docker\.io$/, /^registry\.k8s\.io$/, /^k8s\.gcr\.io$/, /^gcr\.io$/, /^[a-z]+\.gcr\.io$/,
  /^[a-z0-9-]+-docker\.pkg\.dev$/, /^quay\.io$/, /^ghcr\.io$/, /^mcr\.microsoft\.com$/, /^public\.ecr\.aws$/, /\.dkr\.ecr\.[a-z0-9-]+\.amazonaws\.com$/,
  /^registry\.gitlab\.com$/, /^nvcr\.io$/, /^docker\.elastic\.co$/, /^registry\.access\.redhat\.com$/, /^registry\.redhat\.io$/, /^cgr\.dev$/,
  /^[a-z0-9-]+\.azurecr\.io$/, /^docker\.pkg\.github\.com$/, /^mirror\.gcr\.io$/, /^registry\.suse\.com$/,
];

export interface ImageReference {
  /** As written in the pod spec: "nginx:1.14.2". */
  original: string;
  /** Registry host: "docker.io". */
  domain: string;
  /** Path within the registry: "library/nginx". */
  path: string;
  /** "docker.io/library/nginx". */
  repository: string;
  /** The tag, "latest" when neither tag nor digest is given. */
  tag?: string;
  digest?: string;
  /** Fully qualified: "docker.io/library/nginx:1.14.2" (or "@sha256:…"). */
  normalized: string;
}

export class InvalidImageNameError extends Error {}

/** Parsed references by image string: every pod of a Deployment names the same image. */
const parsedReferences = new Map<string, ImageReference>();
const parsedReferencesMax = 4096;

/** ParseNormalizedNamed + TagNameOnly, memoized (the result is frozen: callers share it). */
export function parseImageReference(image: string): ImageReference {
  let ref = parsedReferences.get(image);
  if (ref) return ref;
  ref = Object.freeze(parseImageReferenceUncached(image));
  if (parsedReferences.size >= parsedReferencesMax) parsedReferences.clear();
  parsedReferences.set(image, ref);
  return ref;
}

/**
 * docker/distribution reference.ParseNormalizedNamed with the kubelet's default tag: "nginx" →
 * docker.io/library/nginx:latest. Throws InvalidImageNameError with the reference package's texts.
 */
function parseImageReferenceUncached(image: string): ImageReference {
  const fail = (why: string) => new InvalidImageNameError(`couldn't parse image reference ${JSON.stringify(image)}: ${why}`);
  if (image === '') throw fail('invalid reference format');
  let rest = image;
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!/^[a-z0-9]+(?:[+._-][a-z0-9]+)*:[a-zA-Z0-9=_-]+$/.test(digest)) throw fail('invalid reference format');
  }
  let tag: string | undefined;
  const lastSlash = rest.lastIndexOf('/');
  const colon = rest.lastIndexOf(':');
  if (colon > lastSlash) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
    if (!/^[\w][\w.-]{0,127}$/.test(tag)) throw fail('invalid reference format');
  }
  const slash = rest.indexOf('/');
  let domain = 'docker.io';
  let path = rest;
  if (slash >= 0) {
    const first = rest.slice(0, slash);
    if (first.includes('.') || first.includes(':') || first === 'localhost' || first !== first.toLowerCase()) {
      domain = first;
      path = rest.slice(slash + 1);
    }
  }
  if (path !== path.toLowerCase()) throw fail('invalid reference format: repository name must be lowercase');
  if (!/^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*$/.test(path)) throw fail('invalid reference format');
  if (domain === 'index.docker.io') domain = 'docker.io';
  if (domain === 'docker.io' && !path.includes('/')) path = `library/${path}`;
  if (!tag && !digest) tag = 'latest';
  const repository = `${domain}/${path}`;
  const normalized = `${repository}${tag ? `:${tag}` : ''}${digest ? `@${digest}` : ''}`;
  return { original: image, domain, path, repository, tag, digest, normalized };
}

export function imageProfile(repository: string): ImageProfile | undefined {
  return profilesByRepository.get(repository);
}

/** The profile a pulled image runs with: the table's, or a generic one (an unknown image is taken to be a server). */
export function profileFor(ref: ImageReference): ImageProfile {
  return profilesByRepository.get(ref.repository) ?? { repository: ref.repository, sizeBytes: genericSize(ref), ports: [], run: ImageRun.Server, memoryBytes: 16 * Mi, startupLog: 'generic' };
}

function genericSize(ref: ImageReference): number {
  return Math.round((20 + unitHash(ref.repository) * 180) * MB);
}

function versionParts(v: string): number[] | undefined {
  if (!/^\d+(\.\d+)*$/.test(v)) return undefined;
  return v.split('.').map(Number);
}

/** Whether the version tag v is a release of some line in versions (a prefix of one, or an earlier patch). */
function versionExists(v: string, versions: readonly string[]): boolean {
  const parts = versionParts(v);
  if (!parts) return false;
  return versions.some((known) => {
    const k = versionParts(known)!;
    if (parts.length > k.length) return false;
    for (let i = 0; i < parts.length - 1; i++) if (parts[i] !== k[i]) return false;
    const last = parts.length - 1;
    // A bare major ("1") exists when the line does; the final given component may not exceed the release.
    return parts.length === 1 ? parts[0] === k[0] : parts[last] <= k[last];
  });
}

/** Whether tag exists for the profile's repository. */
export function tagExists(profile: ImageProfile, tag: string): boolean {
  if (profile.anyTag) return true;
  const candidates = [tag];
  for (const s of profile.suffixes ?? []) if (tag.endsWith(s) && tag.length > s.length) candidates.push(tag.slice(0, -s.length));
  return candidates.some((t) => (profile.named ?? []).includes(t) || (profile.versions ? versionExists(t, profile.versions) : false));
}

/** Levenshtein distance, capped (for "did you mean" style misspelling detection). */
function editDistance(a: string, b: string): number {
  const dp = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = dp[0];
    dp[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = dp[j];
      dp[j] = Math.min(dp[j] + 1, dp[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return dp[b.length];
}

/** The well-known official image a name is a misspelling of ("ngnix" → "nginx"), if any. */
export function misspellingOf(name: string): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const repo of profilesByRepository.keys()) {
    if (!repo.startsWith('docker.io/library/')) continue;
    const known = repo.slice('docker.io/library/'.length);
    const d = editDistance(name, known);
    if (d > 0 && d <= (known.length <= 4 ? 1 : 2) && d < bestDistance) {
      best = known;
      bestDistance = d;
    }
  }
  return best;
}

export type PullOutcome =
  | { ok: true; ref: ImageReference; profile: ImageProfile; sizeBytes: number; imageID: string }
  | { ok: false; ref: ImageReference; message: string };

/** What pulling ref from the simulated registry gives. */
export function resolvePull(ref: ImageReference): PullOutcome {
  const resolveErr = (code: 'NotFound' | 'Unknown', detail: string) =>
    `rpc error: code = ${code} desc = failed to pull and unpack image ${JSON.stringify(ref.normalized)}: failed to resolve reference ${JSON.stringify(ref.normalized)}: ${detail}`;
  if (!knownRegistryHosts.some((re) => re.test(ref.domain.replace(/:\d+$/, '')))) {
    const host = ref.domain.replace(/:\d+$/, '');
    const reference = ref.digest ?? ref.tag ?? 'latest';
    return {
      ok: false,
      ref,
      message: resolveErr(
        'Unknown',
        `failed to do request: Head "https://${ref.domain}/v2/${ref.path}/manifests/${reference}": dial tcp: lookup ${host}: no such host`,
      ),
    };
  }
  const profile = profilesByRepository.get(ref.repository);
  const isOfficial = ref.domain === 'docker.io' && ref.path.startsWith('library/');
  if (!profile && isOfficial) {
    // Docker Hub answers 401 for a repository that does not exist, so containerd cannot tell it from a private one.
    return { ok: false, ref, message: resolveErr('Unknown', 'pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed') };
  }
  const p = profile ?? profileFor(ref);
  if (profile && ref.tag && !ref.digest && !tagExists(profile, ref.tag)) {
    return { ok: false, ref, message: resolveErr('NotFound', `${ref.normalized}: not found`) };
  }
  // Variants differ in size a little; the same reference always has the same size and digest.
  const sizeBytes = Math.round(p.sizeBytes * (0.9 + 0.2 * unitHash(ref.normalized)));
  const digest = ref.digest ?? `sha256:${hexDigest(`image:${ref.normalized}`)}`;
  return { ok: true, ref, profile: p, sizeBytes, imageID: `${ref.repository}@${digest}` };
}

/** Virtual time a pull takes: resolving the manifest, then the layers at ~40 MB/s. */
export function pullDurationMs(outcome: PullOutcome): number {
  const jitter = 0.85 + 0.3 * unitHash(`pull:${outcome.ref.normalized}`);
  if (!outcome.ok) return Math.round((outcome.message.includes('no such host') ? 120 : 650) * jitter);
  return Math.round((350 + (outcome.sizeBytes / (40 * MB)) * 1000) * jitter);
}

/** The version an image reports in its start-up log ("1.27.5" for nginx:1.27 or nginx:latest). */
export function imageVersion(ref: ImageReference, profile: ImageProfile): string {
  const tag = ref.tag ?? 'latest';
  const base = (profile.suffixes ?? []).reduce((t, s) => (t.endsWith(s) ? t.slice(0, -s.length) : t), tag);
  const versions = profile.versions ?? [];
  const parts = versionParts(base);
  if (parts) {
    const line = versions.find((v) => v.startsWith(`${base}.`) || v === base);
    if (parts.length >= 3 || !line) return base;
    return line;
  }
  return versions[versions.length - 1] ?? base;
}
