// The cluster's demo-timing settings: the few flags a teacher shortens so a dead node is noticed and its pods
// replaced within a minute instead of six. One live object per cluster: the node lifecycle controller, the
// DefaultTolerationSeconds admission plugin and the kubelets read it on every use (or subscribe to it), so a
// change applies at once without restarting anything; the cluster persists it in its meta.
import type { FieldError } from '../../shared/api/field-errors';
import { fieldErr, fieldErrorToString } from '../../shared/api/field-errors';
import { StatusError, StatusReason, type Status } from '../../shared/api/status';
import { inclusiveRangeError } from '../../shared/lib/validation';
import type { ClusterSettingView, ClusterSettings, ClusterSettingsView } from '../../shared/protocol/introspection';

export type ClusterSettingKey = keyof ClusterSettings;

export interface ClusterSettingSpec {
  key: ClusterSettingKey;
  defaultValue: number;
  /** Whether defaultValue is Kubernetes' own default (vs. the simulator's). */
  kubernetesDefault: boolean;
  min: number;
  max: number;
  /** Whole seconds only (the flag is an integer, not a duration). */
  integer: boolean;
  flag: string;
  description: string;
}

/** The kubelet's nodeStatusReportFrequency default (pkg/kubelet/apis/config/v1beta1/defaults.go). */
export const defaultNodeStatusReportFrequencyMs = 5 * 60_000;

/** In the order the page lists them. */
export const clusterSettingSpecs: readonly ClusterSettingSpec[] = [
  {
    key: 'nodeMonitorGracePeriodSeconds',
    defaultValue: 40,
    kubernetesDefault: true,
    min: 5,
    max: 3600,
    integer: false,
    flag: 'kube-controller-manager --node-monitor-grace-period',
    description:
      'How long a node may go without a heartbeat (a Lease renewal or a node status post) before the node lifecycle ' +
      'controller marks it Ready=Unknown and taints it node.kubernetes.io/unreachable. Keep it a few times the ' +
      'heartbeat interval (the Lease is renewed every 10 s), or healthy nodes flap.',
  },
  {
    key: 'defaultTolerationSeconds',
    defaultValue: 300,
    kubernetesDefault: true,
    min: 0,
    max: 86_400,
    integer: true,
    flag: 'kube-apiserver DefaultTolerationSeconds admission: --default-not-ready-toleration-seconds and --default-unreachable-toleration-seconds',
    description:
      'The tolerationSeconds the admission plugin gives every new pod for the not-ready and unreachable NoExecute ' +
      'taints: how long its pods stay on a lost node before they are evicted and replaced. It applies to pods ' +
      'created afterwards only; existing pods keep the tolerations they were admitted with.',
  },
  {
    key: 'imagePullSeconds',
    defaultValue: 0,
    kubernetesDefault: false,
    min: 0,
    max: 600,
    integer: false,
    flag: 'simulated registry (not a Kubernetes setting)',
    description:
      'How long the simulated registry takes to pull an image that is not on the node yet. 0 means by image ' +
      'size (~40 MB/s plus a manifest round trip, about 2 s for nginx). Failed pulls and pulls of cached layers ' +
      'keep their own short times.',
  },
  {
    key: 'nodeStatusUpdateFrequencySeconds',
    defaultValue: 10,
    kubernetesDefault: true,
    min: 1,
    max: 300,
    integer: false,
    flag: 'kubelet nodeStatusUpdateFrequency (--node-status-update-frequency)',
    description:
      'How often each kubelet computes its node status. At the default the status is posted only when it changed ' +
      'or every 5 min (nodeStatusReportFrequency) and the Lease renewal (every 10 s, a quarter of its 40 s ' +
      'duration) is the heartbeat. Set to another value, nodeStatusReportFrequency defaults to it, as the ' +
      'kubelet configuration does, so the status itself is posted, a heartbeat, at this interval.',
  },
];

const specByKey = new Map<string, ClusterSettingSpec>(clusterSettingSpecs.map((s) => [s.key, s]));

export const defaultClusterSettings: Readonly<ClusterSettings> = Object.freeze(
  Object.fromEntries(clusterSettingSpecs.map((s) => [s.key, s.defaultValue])) as unknown as ClusterSettings,
);

/** The fields of a (partial) settings update that are wrong, as the API server's field errors. */
export function validateClusterSettings(params: unknown): FieldError[] {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) {
    return [fieldErr.typeInvalid('<root>', params, 'must be an object of settings')];
  }
  const errs: FieldError[] = [];
  for (const [key, value] of Object.entries(params)) {
    const spec = specByKey.get(key);
    if (!spec) {
      errs.push(fieldErr.notSupported(key, key, clusterSettingSpecs.map((s) => s.key)));
      continue;
    }
    // Absent (undefined never crosses the worker boundary; an options object may hold it): left as it is.
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      errs.push(fieldErr.typeInvalid(key, value, 'must be a number of seconds'));
    } else if (value < spec.min || value > spec.max) {
      errs.push(fieldErr.invalid(key, value, inclusiveRangeError(spec.min, spec.max)));
    } else if (spec.integer && !Number.isInteger(value)) {
      errs.push(fieldErr.invalid(key, value, 'must be a whole number of seconds'));
    }
  }
  return errs;
}

/** 400 BadRequest listing every wrong field, with a cause per field (the page marks each input). */
export function invalidSettingsError(errs: readonly FieldError[]): StatusError {
  const body = errs.length === 1 ? fieldErrorToString(errs[0]) : `[${errs.map((e) => fieldErrorToString(e)).join(', ')}]`;
  const status: Status = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `invalid cluster settings: ${body}`,
    reason: StatusReason.BadRequest,
    details: { causes: errs.map((e) => ({ reason: e.type, message: fieldErrorToString(e, false), field: e.field })) },
    code: 400,
  };
  return new StatusError(status);
}

/**
 * Reads settings saved by an earlier session, tolerating what older versions saved: no settings at all, some
 * keys missing, or values out of today's bounds. Each valid known key is taken; everything else comes from base.
 */
export function restoreClusterSettings(saved: unknown, base: Readonly<ClusterSettings> = defaultClusterSettings): ClusterSettings {
  const out: ClusterSettings = { ...base };
  if (typeof saved !== 'object' || saved === null || Array.isArray(saved)) return out;
  for (const spec of clusterSettingSpecs) {
    const value = (saved as Record<string, unknown>)[spec.key];
    if (value === undefined) continue;
    if (validateClusterSettings({ [spec.key]: value }).length === 0) out[spec.key] = value as number;
  }
  return out;
}

export function clusterSettingsView(settings: Readonly<ClusterSettings>): ClusterSettingsView {
  return {
    settings: clusterSettingSpecs.map(
      (s): ClusterSettingView => ({
        key: s.key,
        value: settings[s.key],
        defaultValue: s.defaultValue,
        kubernetesDefault: s.kubernetesDefault,
        min: s.min,
        max: s.max,
        flag: s.flag,
        description: s.description,
      }),
    ),
  };
}

export type ClusterSettingsListener = (next: Readonly<ClusterSettings>, previous: Readonly<ClusterSettings>) => void;

/** What the kubelets read (a narrow view, so a kubelet can be built with fixed values in tests). */
export interface KubeletSettingsSource {
  readonly nodeStatusUpdateFrequencyMs: number;
  readonly nodeStatusReportFrequencyMs: number;
  /** A fixed pull time, or undefined: by image size. */
  readonly imagePullMs: number | undefined;
  subscribe(fn: ClusterSettingsListener): () => void;
}

/**
 * The cluster's current settings. Components read the derived getters on every use; those that schedule
 * ahead (the kubelet's status loop) subscribe to reschedule. configure() validates the whole update first, so
 * a refused update changes nothing.
 */
export class LiveClusterSettings implements KubeletSettingsSource {
  private current: Readonly<ClusterSettings>;
  private readonly listeners = new Set<ClusterSettingsListener>();

  /** Throws the 400 of invalidSettingsError when initial holds a wrong value. */
  constructor(initial: Partial<ClusterSettings> = {}) {
    const errs = validateClusterSettings(initial);
    if (errs.length) throw invalidSettingsError(errs);
    this.current = Object.freeze({ ...defaultClusterSettings, ...definedOnly(initial) });
  }

  get(): Readonly<ClusterSettings> {
    return this.current;
  }

  view(): ClusterSettingsView {
    return clusterSettingsView(this.current);
  }

  /** Applies a partial update at once; throws (and changes nothing) when a field is wrong. */
  configure(params: unknown): Readonly<ClusterSettings> {
    const errs = validateClusterSettings(params);
    if (errs.length) throw invalidSettingsError(errs);
    const previous = this.current;
    const next = Object.freeze({ ...previous, ...definedOnly(params as Partial<ClusterSettings>) });
    if (clusterSettingSpecs.every((s) => next[s.key] === previous[s.key])) return previous;
    this.current = next;
    for (const fn of [...this.listeners]) fn(next, previous);
    return next;
  }

  subscribe(fn: ClusterSettingsListener): () => void {
    this.listeners.add(fn);
    return () => {
      this.listeners.delete(fn);
    };
  }

  // ------------------------------------------------------------------ what the components read

  get nodeMonitorGracePeriodMs(): number {
    return Math.round(this.current.nodeMonitorGracePeriodSeconds * 1000);
  }

  get defaultTolerationSeconds(): number {
    return this.current.defaultTolerationSeconds;
  }

  get imagePullMs(): number | undefined {
    const s = this.current.imagePullSeconds;
    return s > 0 ? Math.round(s * 1000) : undefined;
  }

  get nodeStatusUpdateFrequencyMs(): number {
    return Math.round(this.current.nodeStatusUpdateFrequencySeconds * 1000);
  }

  /**
   * The kubelet configuration's defaulting: nodeStatusReportFrequency is 5 min unless nodeStatusUpdateFrequency
   * is set, in which case it defaults to that (SetDefaults_KubeletConfiguration). A value equal to the default
   * counts as unset here.
   */
  get nodeStatusReportFrequencyMs(): number {
    const spec = specByKey.get('nodeStatusUpdateFrequencySeconds')!;
    return this.current.nodeStatusUpdateFrequencySeconds === spec.defaultValue ? defaultNodeStatusReportFrequencyMs : this.nodeStatusUpdateFrequencyMs;
  }
}

function definedOnly(params: Partial<ClusterSettings>): Partial<ClusterSettings> {
  return Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined)) as Partial<ClusterSettings>;
}

/**
 * The settings a cluster starts with: those it saved (a restored cluster keeps its own; each valid saved value
 * wins), else the requested ones, else the defaults. Throws the 400 of invalidSettingsError for a wrong request.
 */
export function initialClusterSettings(saved: unknown, requested: Partial<ClusterSettings> = {}): ClusterSettings {
  const errs = validateClusterSettings(requested);
  if (errs.length) throw invalidSettingsError(errs);
  return restoreClusterSettings(saved, { ...defaultClusterSettings, ...definedOnly(requested) });
}
