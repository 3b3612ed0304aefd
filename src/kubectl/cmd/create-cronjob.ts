// kubectl create cronjob NAME --image=… --schedule=… [--restart] [-- COMMAND…] (pkg/cmd/create/
// create_cronjob.go, v1.32): one container named NAME, restartPolicy OnFailure unless --restart says otherwise.
import type { CommandSpec } from '../cli/command';
import { dryRunFlag, fieldManagerFlag, guarded, nameFromCommandArgs, printFlags, requireFlags, runTypedCreate, saveConfigFlag, stringFlag, validateFlag } from './create-common';

export const createCronJobCommand: CommandSpec = {
  path: ['create', 'cronjob'],
  aliases: ['cj'],
  use: "cronjob NAME --image=image --schedule='0/5 * * * ?' -- [COMMAND] [args...]",
  flagsInUseLine: true,
  short: 'Create a cron job with the specified name',
  long: 'Create a cron job with the specified name.',
  example:
    '  # Create a cron job\n  kubectl create cronjob my-job --image=busybox --schedule="*/1 * * * *"\n  \n  # Create a cron job with a command\n  kubectl create cronjob my-job --image=busybox --schedule="*/1 * * * *" -- date',
  flags: [
    ...printFlags,
    dryRunFlag,
    fieldManagerFlag('kubectl-create'),
    { name: 'image', type: 'string', default: '', usage: 'Image name to run.' },
    { name: 'restart', type: 'string', default: '', usage: "job's restart policy. supported values: OnFailure, Never" },
    saveConfigFlag,
    { name: 'schedule', type: 'string', default: '', usage: 'A schedule in the Cron format the job should be run with.' },
    validateFlag,
  ],
  run: (env, args, flags, io) =>
    guarded(io, 'create cronjob', () => {
      requireFlags(flags, ['image', 'schedule']);
      const name = nameFromCommandArgs(args, flags);
      const command = args.slice(1);
      const image = stringFlag(flags, 'image');
      const restartPolicy = stringFlag(flags, 'restart') || 'OnFailure';
      const cronJob = {
        kind: 'CronJob',
        apiVersion: 'batch/v1',
        metadata: { name, ...(env.namespaceExplicit ? { namespace: env.namespace } : {}), creationTimestamp: null as unknown as string },
        spec: {
          schedule: stringFlag(flags, 'schedule'),
          jobTemplate: {
            metadata: { name, creationTimestamp: null },
            spec: {
              template: {
                metadata: { creationTimestamp: null },
                spec: { containers: [{ name, image, ...(command.length ? { command } : {}), resources: {} }], restartPolicy },
              },
            },
          },
        },
        status: {},
      };
      return runTypedCreate(env, env.namespace, flags, io, { group: 'batch', version: 'v1', resource: 'cronjobs', kind: 'CronJob', namespaced: true }, cronJob, (m) => `failed to create cronjob: ${m}`);
    }),
};
