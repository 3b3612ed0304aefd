// kubectl create job NAME --image=… [-- COMMAND…] | --from=cronjob/NAME (pkg/cmd/create/create_job.go, v1.32):
// a Job with one container named NAME and restartPolicy Never, or a Job instantiated from a CronJob's template
// (annotation cronjob.kubernetes.io/instantiate: manual, owned by the CronJob).
import type { KubeObject } from '../../shared/api/types';
import type { CommandSpec } from '../cli/command';
import { buildResources, CommandError } from '../resource-builder';
import { dryRunFlag, fieldManagerFlag, guarded, nameFromCommandArgs, printFlags, runTypedCreate, saveConfigFlag, stringFlag, validateFlag } from './create-common';

export const createJobCommand: CommandSpec = {
  path: ['create', 'job'],
  use: 'job NAME --image=image [--from=cronjob/name] -- [COMMAND] [args...]',
  short: 'Create a job with the specified name',
  long: 'Create a job with the specified name.',
  example:
    '  # Create a job\n  kubectl create job my-job --image=busybox\n  \n  # Create a job with a command\n  kubectl create job my-job --image=busybox -- date\n  \n  # Create a job from a cron job named "a-cronjob"\n  kubectl create job test-job --from=cronjob/a-cronjob',
  flags: [
    ...printFlags,
    dryRunFlag,
    fieldManagerFlag('kubectl-create'),
    { name: 'from', type: 'string', default: '', usage: 'The name of the resource to create a Job from (only cronjob is supported).' },
    { name: 'image', type: 'string', default: '', usage: 'Image name to run.' },
    saveConfigFlag,
    validateFlag,
  ],
  run: (env, args, flags, io) =>
    guarded(io, 'create job', () => {
      const name = nameFromCommandArgs(args, flags);
      const command = args.slice(1);
      const image = stringFlag(flags, 'image');
      const from = stringFlag(flags, 'from');
      if ((!image && !from) || (image && from)) throw new CommandError('either --image or --from must be specified');
      if (command.length > 0 && from) throw new CommandError('cannot specify --from and command');
      const namespace = env.namespaceExplicit ? env.namespace : '';
      let job: KubeObject;
      if (image) {
        job = {
          kind: 'Job',
          apiVersion: 'batch/v1',
          metadata: { name, ...(namespace ? { namespace } : {}), creationTimestamp: null as unknown as string },
          spec: {
            template: {
              metadata: { creationTimestamp: null },
              spec: { containers: [{ name, image, ...(command.length ? { command } : {}), resources: {} }], restartPolicy: 'Never' },
            },
          },
          status: {},
        };
      } else {
        const built = buildResources(env, { args: [from], requireObject: true });
        if (built.error) throw built.error;
        if (built.errors.length > 0) throw built.errors.length === 1 ? built.errors[0] : built.errors;
        if (built.infos.length !== 1) throw new CommandError('from must be an existing cronjob');
        const cronJob = built.infos[0].object!;
        if (cronJob.kind !== 'CronJob') throw new CommandError(`unknown object type *${goTypeName(cronJob)}`);
        job = jobFromCronJob(name, namespace, cronJob);
      }
      return runTypedCreate(env, env.namespace, flags, io, { group: 'batch', version: 'v1', resource: 'jobs', kind: 'Job', namespaced: true }, job, (m) => `failed to create job: ${m}`);
    }),
};

/** The Go type kubectl names in `unknown object type *v1.Deployment`. */
function goTypeName(obj: KubeObject): string {
  const version = obj.apiVersion.includes('/') ? obj.apiVersion.split('/')[1] : obj.apiVersion;
  return `${version}.${obj.kind}`;
}

/** createJobFromCronJob(): the CronJob's job template as a Job it controls, marked as a manual instantiation. */
export function jobFromCronJob(name: string, namespace: string, cronJob: KubeObject): KubeObject {
  const template = ((cronJob.spec as Record<string, unknown> | undefined)?.jobTemplate ?? {}) as { metadata?: { annotations?: Record<string, string>; labels?: Record<string, string> }; spec?: unknown };
  const annotations: Record<string, string> = { 'cronjob.kubernetes.io/instantiate': 'manual', ...(template.metadata?.annotations ?? {}) };
  return {
    kind: 'Job',
    apiVersion: 'batch/v1',
    metadata: {
      name,
      ...(namespace ? { namespace } : {}),
      creationTimestamp: null as unknown as string,
      ...(template.metadata?.labels ? { labels: template.metadata.labels } : {}),
      annotations: Object.fromEntries(Object.entries(annotations).sort(([a], [b]) => (a < b ? -1 : 1))),
      ownerReferences: [{ apiVersion: 'batch/v1', kind: 'CronJob', name: cronJob.metadata.name ?? '', uid: cronJob.metadata.uid ?? '', controller: true }],
    },
    spec: template.spec ?? {},
    status: {},
  };
}
