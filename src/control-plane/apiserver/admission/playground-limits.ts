// PlaygroundLimits: kubeplay's own admission plugin (no Kubernetes API server has it) enforcing the
// playground-wide caps of config/playground-limits.ts, so a typo or a runaway loop cannot freeze the tab. Its
// refusals look like the real server's: a 403 Forbidden worded like ResourceQuota's "exceeded quota" for
// objects, stored bytes and replicas per workload, and a 429 Too Many Requests, as the EventRateLimit admission
// plugin answers, for events past the per-minute cap. Only what grows is refused: an update that keeps or
// lowers a value over its cap passes (so lowering a cap never wedges an object), and deletes always pass.
import { StatusError, StatusReason, type Status } from '../../../shared/api/status';
import type { KubeObject } from '../../../shared/api/types';
import { type PlaygroundLimits, limitLabel, MiB } from '../../config/playground-limits';
import type { PlaygroundLimitsSource } from '../../config/live-playground-limits';
import { storedSize } from '../../config/store-usage';
import type { AdmissionAttributes, AdmissionContext, AdmissionOperation, ValidatingAdmissionPlugin } from '../types';
import { AdmissionOperation as Op } from '../types';
import { admissionForbidden } from './errors';

export const PlaygroundLimitsPluginName = 'PlaygroundLimits';

/**
 * Below the cap by more than this, a write cannot cross it (an object is at most the API server's 3 MiB request
 * limit, and the usage estimate lags by at most a few hundred small changes), so its size is not computed.
 */
const bytesSlack = 16 * MiB;

type ReplicaFields = readonly (readonly [path: string, absent: number | undefined])[];

/**
 * The replica counts of each workload kind, by group then resource: [field path, value when absent]. Two
 * lookups by the registry's own strings, not one by a "group/resource" string built per write.
 */
const replicaFields: ReadonlyMap<string, ReadonlyMap<string, ReplicaFields>> = new Map([
  [
    'apps',
    new Map<string, ReplicaFields>([
      ['deployments', [['spec.replicas', 1]]],
      ['replicasets', [['spec.replicas', 1]]],
      ['statefulsets', [['spec.replicas', 1]]],
    ]),
  ],
  ['', new Map<string, ReplicaFields>([['replicationcontrollers', [['spec.replicas', 1]]]])],
  [
    'batch',
    new Map<string, ReplicaFields>([
      [
        'jobs',
        [
          ['spec.parallelism', 1],
          ['spec.completions', undefined],
        ],
      ],
      [
        'cronjobs',
        [
          ['spec.jobTemplate.spec.parallelism', 1],
          ['spec.jobTemplate.spec.completions', undefined],
        ],
      ],
    ]),
  ],
  ['autoscaling', new Map<string, ReplicaFields>([['horizontalpodautoscalers', [['spec.maxReplicas', undefined]]]])],
]);

function readNumber(obj: KubeObject | undefined, path: string): number | undefined {
  let cur: unknown = obj;
  for (const part of path.split('.')) {
    if (typeof cur !== 'object' || cur === null || !Object.hasOwn(cur, part)) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return typeof cur === 'number' ? cur : undefined;
}

function isEvents(attrs: AdmissionAttributes): boolean {
  const { group, resource } = attrs.resourceType;
  return resource === 'events' && (group === '' || group === 'events.k8s.io');
}

/** errors.go NewTooManyRequests: 429 with the message as given and a Retry-After. */
export function newTooManyRequests(message: string, retryAfterSeconds: number): StatusError {
  const status: Status = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason: StatusReason.TooManyRequests,
    details: { retryAfterSeconds },
    code: 429,
  };
  return new StatusError(status);
}

function bytesText(n: number): string {
  return n % MiB === 0 ? `${n} (${n / MiB}Mi)` : String(n);
}

export class PlaygroundLimitsAdmission implements ValidatingAdmissionPlugin {
  readonly name = PlaygroundLimitsPluginName;

  constructor(private readonly source: PlaygroundLimitsSource) {}

  handles(op: AdmissionOperation): boolean {
    return op === Op.Create || op === Op.Update;
  }

  validate(attrs: AdmissionAttributes, ctx: AdmissionContext): void {
    const obj = attrs.object;
    if (!obj) return;
    const limits = this.source.get();
    // An update of an object that does not exist yet (PUT with create, server-side apply) creates it.
    const creates = attrs.operation === Op.Create || !attrs.oldObject?.metadata.resourceVersion;
    // Subresource creates (pods/binding, pods/eviction, token and access reviews) store no new object.
    const storesNew = creates && !attrs.subresource;
    this.checkReplicas(attrs, obj, creates ? undefined : attrs.oldObject, limits);
    if (storesNew) this.checkObjects(attrs, limits);
    this.checkBytes(attrs, obj, creates ? undefined : attrs.oldObject, limits);
    if (storesNew && isEvents(attrs)) this.admitEvent(attrs, ctx, limits);
  }

  private checkReplicas(attrs: AdmissionAttributes, obj: KubeObject, old: KubeObject | undefined, limits: PlaygroundLimits): void {
    const fields = replicaFields.get(attrs.resourceType.group)?.get(attrs.resourceType.resource);
    if (!fields) return;
    const max = limits.maxReplicasPerWorkload;
    for (const [path, absent] of fields) {
      const value = readNumber(obj, path) ?? absent;
      if (value === undefined || value <= max) continue;
      const before = old ? (readNumber(old, path) ?? absent) : undefined;
      if (before !== undefined && value <= before) continue;
      throw admissionForbidden(attrs, `exceeded playground limit: ${limitLabel('maxReplicasPerWorkload')}, requested: ${path}=${value}, limited: ${max}`);
    }
  }

  private checkObjects(attrs: AdmissionAttributes, limits: PlaygroundLimits): void {
    const usage = this.source.usage;
    if (!usage) return;
    const used = usage.objects();
    if (used + 1 <= limits.maxObjects) return;
    throw admissionForbidden(attrs, `exceeded playground limit: ${limitLabel('maxObjects')}, requested: 1, used: ${used}, limited: ${limits.maxObjects}`);
  }

  private checkBytes(attrs: AdmissionAttributes, obj: KubeObject, old: KubeObject | undefined, limits: PlaygroundLimits): void {
    const usage = this.source.usage;
    if (!usage) return;
    const max = limits.maxStoredBytes;
    if (usage.storedBytesEstimate() + bytesSlack <= max) return;
    // Near the cap: exact usage and the exact growth of this write. The key does not change on update.
    const used = usage.storedBytes();
    const key = attrs.resourceType.resource + '/' + attrs.namespace + '/' + attrs.name;
    const growth = storedSize(key, obj) - (old ? storedSize(key, old) : 0);
    if (growth <= 0 || used + growth <= max) return;
    throw admissionForbidden(
      attrs,
      `exceeded playground limit: ${limitLabel('maxStoredBytes')}, requested: ${growth}, used: ${used}, limited: ${bytesText(max)}`,
    );
  }

  private admitEvent(attrs: AdmissionAttributes, ctx: AdmissionContext, limits: PlaygroundLimits): void {
    const now = ctx.clock.now();
    const used = this.source.events.count(now);
    if (used + 1 > limits.maxEventsPerMinute) {
      throw newTooManyRequests(`Too many requests: exceeded playground limit: ${limitLabel('maxEventsPerMinute')}, used: ${used}, limited: ${limits.maxEventsPerMinute}`, 1);
    }
    if (!attrs.dryRun) this.source.events.record(now);
  }
}
