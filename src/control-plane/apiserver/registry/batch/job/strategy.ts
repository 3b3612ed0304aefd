// Job strategy (pkg/registry/batch/job/strategy.go): defaults, the generated selector and labels (from the uid the
// API server assigned before PrepareForCreate), generation, immutable selector and template, status subresource.
import type { ResourceType } from '../../../../../shared/api/resources';
import type { KubeObject } from '../../../../../shared/api/types';
import type { ResourceStrategy } from '../../../types';
import { validateKubeObjectMetaUpdate } from '../../generic/kubemeta';
import { defaultPodTemplate } from '../../generic/podspec/defaults';
import { defineStrategy, specChanged } from '../../generic/strategy';
import { type Obj, ensureObj, isObj, meta, objItems, setDefault, validateNonnegativeField } from '../../generic/util';
import { ControllerUidLabel, JobNameLabel, LegacyControllerUidLabel, LegacyJobNameLabel, validateJob, validateJobSpec, validateJobUpdate } from './validation';

const MaxInt32 = 2147483647;

/** SetDefaults_Job. */
export function defaultJob(job: KubeObject): void {
  const spec = ensureObj(job as Obj, 'spec');
  if ((spec.completions === undefined || spec.completions === null) && (spec.parallelism === undefined || spec.parallelism === null)) {
    spec.completions = 1;
    spec.parallelism = 1;
  }
  setDefault(spec, 'parallelism', 1);
  setDefault(spec, 'backoffLimit', spec.backoffLimitPerIndex !== undefined && spec.backoffLimitPerIndex !== null ? MaxInt32 : 6);
  const template = ensureObj(spec, 'template');
  const labels = isObj(template.metadata) ? template.metadata.labels : undefined;
  const m = meta(job);
  if (isObj(labels) && Object.keys(m.labels ?? {}).length === 0) m.labels = { ...(labels as Record<string, string>) };
  setDefault(spec, 'completionMode', 'NonIndexed');
  setDefault(spec, 'suspend', false);
  if (isObj(spec.podFailurePolicy)) {
    for (const rule of objItems(spec.podFailurePolicy, 'rules')) {
      for (const cond of objItems(rule, 'onPodConditions')) setDefault(cond, 'status', 'True');
    }
  }
  setDefault(spec, 'podReplacementPolicy', isObj(spec.podFailurePolicy) ? 'Failed' : 'TerminatingOrFailed');
  defaultPodTemplate(template);
}

/**
 * generateSelector: pods of the job carry controller-uid and job-name labels (new and legacy spellings) and the
 * selector picks batch.kubernetes.io/controller-uid. User-set values are kept; validation rejects wrong ones.
 */
export function generateSelector(job: KubeObject): void {
  const spec = ensureObj(job as Obj, 'spec');
  const tmeta = ensureObj(ensureObj(spec, 'template'), 'metadata');
  const labels = (isObj(tmeta.labels) ? tmeta.labels : (tmeta.labels = {})) as Record<string, string>;
  const name = job.metadata.name ?? '';
  const uid = job.metadata.uid ?? '';
  for (const key of [LegacyJobNameLabel, JobNameLabel]) if (!Object.prototype.hasOwnProperty.call(labels, key)) labels[key] = name;
  for (const key of [LegacyControllerUidLabel, ControllerUidLabel]) if (!Object.prototype.hasOwnProperty.call(labels, key)) labels[key] = uid;
  const selector = ensureObj(spec, 'selector');
  const matchLabels = ensureObj(selector, 'matchLabels') as Record<string, string>;
  if (!Object.prototype.hasOwnProperty.call(matchLabels, ControllerUidLabel)) matchLabels[ControllerUidLabel] = uid;
}

function validateJobStatus(job: KubeObject) {
  const status = isObj(job.status) ? job.status : {};
  return ['active', 'succeeded', 'failed', 'ready', 'terminating'].flatMap((f) => validateNonnegativeField(status[f], `status.${f}`));
}

export function jobStrategy(rt: ResourceType): ResourceStrategy {
  return defineStrategy(rt, {
    applyDefaults: defaultJob,
    generationChanged: specChanged,
    // batch/v1 keeps Jobs' old default (pkg/registry/batch/job: "for back compatibility"), and says so.
    defaultGarbageCollectionPolicy: {
      policy: 'OrphanDependents',
      warning:
        'child pods are preserved by default when jobs are deleted; set propagationPolicy=Background to remove them or set propagationPolicy=Orphan to suppress this warning',
    },
    prepareForCreate(job) {
      const spec = ensureObj(job as Obj, 'spec');
      if (spec.manualSelector !== true) generateSelector(job);
      // Reading a job back from etcd re-applies defaults, which copies the (now generated) template labels onto
      // a job created without labels; done here once, so `kubectl get job -o yaml` shows what Kubernetes shows.
      const labels = isObj(spec.template) && isObj(spec.template.metadata) ? spec.template.metadata.labels : undefined;
      const m = meta(job);
      if (isObj(labels) && Object.keys(m.labels ?? {}).length === 0) m.labels = { ...(labels as Record<string, string>) };
    },
    validateSpec: validateJob,
    // ValidateJobUpdate re-validates the spec, without the generated-selector rule, then the immutable fields.
    validateUpdateFull: (job, old) => [
      ...validateKubeObjectMetaUpdate(job.metadata, old.metadata),
      ...validateJobSpec(isObj(job.spec) ? job.spec : {}, 'spec'),
      ...validateJobUpdate(job, old),
    ],
    status: { validate: validateJobStatus },
    selectableFields: (job) => ({ 'status.successful': String(isObj(job.status) && typeof job.status.succeeded === 'number' ? job.status.succeeded : 0) }),
  });
}
