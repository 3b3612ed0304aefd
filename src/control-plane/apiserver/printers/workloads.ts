// apps and batch: deployments, replica sets, stateful sets, daemon sets, controller revisions, jobs and cron jobs
// (printers.go, v1.32 columns).
import type { KubeObject } from '../../../shared/api/types';
import { formatLabelSelector, labelSelectorAsSelector, selectorToString } from '../../../shared/lib/labels';
import type { LabelSelector } from '../../../shared/api/types';
import { humanDuration } from '../../../shared/lib/duration';
import {
  ageColumn,
  arr,
  column,
  field,
  formatLabels,
  layoutContainerCells,
  nameColumn,
  num,
  printBoolPtr,
  rec,
  str,
  translateTimestampSince,
  type KindPrinter,
} from './table';

const name = (obj: KubeObject): string => obj.metadata?.name ?? '';
const age = (obj: KubeObject, now: number): string => translateTimestampSince(obj.metadata?.creationTimestamp, now);
const containersOf = (obj: KubeObject, ...path: string[]): [string, string] => layoutContainerCells(arr(field(obj, ...path, 'spec', 'containers')));
const selectorOf = (obj: KubeObject, ...path: string[]): string => formatLabelSelector(field(obj, ...path) as LabelSelector | undefined);

const containersColumn = () => column('Containers', 'string', 'Names of each container in the template.', { priority: 1 });
const imagesColumn = () => column('Images', 'string', 'Images referenced by each container in the template.', { priority: 1 });

export const deploymentPrinter: KindPrinter = {
  columns: [
    nameColumn(),
    column('Ready', 'string', 'Number of the pod with ready state'),
    column('Up-to-date', 'string', 'io.k8s.api.apps.v1.DeploymentStatus#updatedReplicas'),
    column('Available', 'string', 'io.k8s.api.apps.v1.DeploymentStatus#availableReplicas'),
    ageColumn(),
    containersColumn(),
    imagesColumn(),
    column('Selector', 'string', 'io.k8s.api.apps.v1.DeploymentSpec#selector', { priority: 1 }),
  ],
  cells(obj, { now }) {
    const [names, images] = containersOf(obj, 'spec', 'template');
    // LabelSelectorAsSelector(...).String(): "" for an empty selector, "<invalid>" when it does not parse.
    let selector: string;
    try {
      selector = selectorToString(labelSelectorAsSelector(field(obj, 'spec', 'selector') as LabelSelector | undefined));
    } catch {
      selector = '<invalid>';
    }
    return [
      name(obj),
      `${num(field(obj, 'status', 'readyReplicas'))}/${num(field(obj, 'spec', 'replicas'))}`,
      num(field(obj, 'status', 'updatedReplicas')),
      num(field(obj, 'status', 'availableReplicas')),
      age(obj, now),
      names,
      images,
      selector,
    ];
  },
};

export const replicaSetPrinter: KindPrinter = {
  columns: [
    nameColumn(),
    column('Desired', 'integer', 'io.k8s.api.apps.v1.ReplicaSetSpec#replicas'),
    column('Current', 'integer', 'io.k8s.api.apps.v1.ReplicaSetStatus#replicas'),
    column('Ready', 'integer', 'io.k8s.api.apps.v1.ReplicaSetStatus#readyReplicas'),
    ageColumn(),
    containersColumn(),
    imagesColumn(),
    column('Selector', 'string', 'io.k8s.api.apps.v1.ReplicaSetSpec#selector', { priority: 1 }),
  ],
  cells(obj, { now }) {
    const [names, images] = containersOf(obj, 'spec', 'template');
    return [
      name(obj),
      num(field(obj, 'spec', 'replicas')),
      num(field(obj, 'status', 'replicas')),
      num(field(obj, 'status', 'readyReplicas')),
      age(obj, now),
      names,
      images,
      selectorOf(obj, 'spec', 'selector'),
    ];
  },
};

export const statefulSetPrinter: KindPrinter = {
  columns: [nameColumn(), column('Ready', 'string', 'Number of the pod with ready state'), ageColumn(), containersColumn(), imagesColumn()],
  cells(obj, { now }) {
    const [names, images] = containersOf(obj, 'spec', 'template');
    return [name(obj), `${num(field(obj, 'status', 'readyReplicas'))}/${num(field(obj, 'spec', 'replicas'))}`, age(obj, now), names, images];
  },
};

const dsStatus = 'io.k8s.api.apps.v1.DaemonSetStatus';

export const daemonSetPrinter: KindPrinter = {
  columns: [
    nameColumn(),
    column('Desired', 'integer', `${dsStatus}#desiredNumberScheduled`),
    column('Current', 'integer', `${dsStatus}#currentNumberScheduled`),
    column('Ready', 'integer', `${dsStatus}#numberReady`),
    column('Up-to-date', 'integer', `${dsStatus}#updatedNumberScheduled`),
    column('Available', 'integer', `${dsStatus}#numberAvailable`),
    column('Node Selector', 'string', 'io.k8s.api.core.v1.PodSpec#nodeSelector'),
    ageColumn(),
    containersColumn(),
    imagesColumn(),
    column('Selector', 'string', 'io.k8s.api.apps.v1.DaemonSetSpec#selector', { priority: 1 }),
  ],
  cells(obj, { now }) {
    const [names, images] = containersOf(obj, 'spec', 'template');
    const status = rec(field(obj, 'status'));
    return [
      name(obj),
      num(status.desiredNumberScheduled),
      num(status.currentNumberScheduled),
      num(status.numberReady),
      num(status.updatedNumberScheduled),
      num(status.numberAvailable),
      formatLabels(rec<string>(field(obj, 'spec', 'template', 'spec', 'nodeSelector'))),
      age(obj, now),
      names,
      images,
      selectorOf(obj, 'spec', 'selector'),
    ];
  },
};

export const controllerRevisionPrinter: KindPrinter = {
  columns: [
    nameColumn(),
    column('Controller', 'string', 'Controller of the object'),
    column('Revision', 'string', 'io.k8s.api.apps.v1.ControllerRevision#revision'),
    ageColumn(),
  ],
  cells(obj, { now }) {
    const ref = (obj.metadata?.ownerReferences ?? []).find((r) => r.controller);
    let controller = '<none>';
    if (ref) {
      const group = ref.apiVersion.includes('/') ? ref.apiVersion.split('/')[0] : '';
      const groupKind = group ? `${ref.kind}.${group}` : ref.kind;
      controller = ref.kind ? `${groupKind.toLowerCase()}/${ref.name}` : ref.name;
    }
    return [name(obj), controller, num(field(obj, 'revision')), age(obj, now)];
  },
};

// ---------------------------------------------------------------- batch

function jobCondition(obj: KubeObject, type: string): boolean {
  const c = arr(field(obj, 'status', 'conditions')).find((x) => field(x, 'type') === type);
  return field(c, 'status') === 'True';
}

export const jobPrinter: KindPrinter = {
  columns: [
    nameColumn(),
    column('Status', 'string', 'Status of the job.'),
    column('Completions', 'string', 'io.k8s.api.batch.v1.JobStatus#succeeded'),
    column('Duration', 'string', 'Time required to complete the job.'),
    ageColumn(),
    containersColumn(),
    imagesColumn(),
    column('Selector', 'string', 'io.k8s.api.batch.v1.JobSpec#selector', { priority: 1 }),
  ],
  cells(job, { now }) {
    const spec = rec(field(job, 'spec'));
    const status = rec(field(job, 'status'));
    const succeeded = num(status.succeeded);
    let completions: string;
    if (typeof spec.completions === 'number') {
      completions = `${succeeded}/${spec.completions}`;
    } else {
      const parallelism = num(spec.parallelism);
      completions = parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
    }
    let jobDuration = '';
    const start = str(status.startTime);
    const completion = str(status.completionTime);
    if (start && !completion) jobDuration = humanDuration(now - Date.parse(start));
    else if (start && completion) jobDuration = humanDuration(Date.parse(completion) - Date.parse(start));
    let jobStatus: string;
    if (jobCondition(job, 'Complete')) jobStatus = 'Complete';
    else if (jobCondition(job, 'Failed')) jobStatus = 'Failed';
    else if (job.metadata?.deletionTimestamp) jobStatus = 'Terminating';
    else if (jobCondition(job, 'Suspended')) jobStatus = 'Suspended';
    else if (jobCondition(job, 'FailureTarget')) jobStatus = 'FailureTarget';
    else jobStatus = 'Running';
    const [names, images] = containersOf(job, 'spec', 'template');
    return [name(job), jobStatus, completions, jobDuration, age(job, now), names, images, selectorOf(job, 'spec', 'selector')];
  },
};

const cronJobSpec = 'io.k8s.api.batch.v1.CronJobSpec';

export const cronJobPrinter: KindPrinter = {
  columns: [
    nameColumn(),
    column('Schedule', 'string', `${cronJobSpec}#schedule`),
    column('Timezone', 'string', `${cronJobSpec}#timeZone`),
    column('Suspend', 'boolean', `${cronJobSpec}#suspend`),
    column('Active', 'integer', 'io.k8s.api.batch.v1.CronJobStatus#active'),
    column('Last Schedule', 'string', 'io.k8s.api.batch.v1.CronJobStatus#lastScheduleTime'),
    ageColumn(),
    containersColumn(),
    imagesColumn(),
    column('Selector', 'string', 'io.k8s.api.batch.v1.JobSpec#selector', { priority: 1 }),
  ],
  cells(cj, { now }) {
    const spec = rec(field(cj, 'spec'));
    const last = str(field(cj, 'status', 'lastScheduleTime'));
    const suspend = spec.suspend;
    const [names, images] = containersOf(cj, 'spec', 'jobTemplate', 'spec', 'template');
    return [
      name(cj),
      str(spec.schedule),
      typeof spec.timeZone === 'string' ? spec.timeZone : '<none>',
      printBoolPtr(typeof suspend === 'boolean' ? suspend : undefined),
      arr(field(cj, 'status', 'active')).length,
      last ? translateTimestampSince(last, now) : '<none>',
      age(cj, now),
      names,
      images,
      selectorOf(cj, 'spec', 'jobTemplate', 'spec', 'selector'),
    ];
  },
};
