// Every kubectl command kubeplay runs, in kubectl's help order. Each lives in its own module beside this one.
import type { CommandSpec } from '../cli/command';
import { annotateCommand } from './annotate';
import { authCanICommand } from './auth';
import { clusterInfoCommand } from './cluster-info';
import { configCurrentContextCommand, configGetContextsCommand, configSetContextCommand, configUseContextCommand, configViewCommand } from './config';
import { applyCommand } from './apply';
import { createCommand } from './create';
import { createConfigMapCommand } from './create-configmap';
import { createCronJobCommand } from './create-cronjob';
import { createDeploymentCommand } from './create-deployment';
import { createJobCommand } from './create-job';
import { createNamespaceCommand } from './create-namespace';
import { createSecretGenericCommand } from './create-secret';
import { createServiceClusterIPCommand, createServiceNodePortCommand } from './create-service';
import { autoscaleCommand } from './autoscale';
import { deleteCommand } from './delete';
import { exposeCommand } from './expose';
import { scaleCommand } from './scale';
import { taintCommand } from './taint';
import { labelCommand } from './label';
import { getCommand } from './get';
import { explainCommand } from './explain';
import { apiResourcesCommand } from './api-resources';
import { apiVersionsCommand } from './api-versions';
import { versionCommand } from './version';
import { runPodCommand } from './run-pod';
import { setEnvCommand } from './set-env';
import { setImageCommand } from './set-image';
import { editCommand } from './edit';
import { rolloutHistoryCommand } from './rollout-history';
import { rolloutPauseCommand } from './rollout-pause';
import { rolloutRestartCommand } from './rollout-restart';
import { rolloutResumeCommand } from './rollout-resume';
import { rolloutStatusCommand } from './rollout-status';
import { rolloutUndoCommand } from './rollout-undo';
import { cordonCommand, uncordonCommand } from './cordon';
import { drainCommand } from './drain';
import { describeCommand } from './describe';
import { eventsCommand } from './events';
import { execCommand } from './exec';
import { logsCommand } from './logs';
import { topNodeCommand, topPodCommand } from './top';

export const commands: CommandSpec[] = [
  createCommand,
  createConfigMapCommand,
  createCronJobCommand,
  createDeploymentCommand,
  createJobCommand,
  createNamespaceCommand,
  createSecretGenericCommand,
  createServiceClusterIPCommand,
  createServiceNodePortCommand,
  runPodCommand,
  setEnvCommand,
  setImageCommand,
  deleteCommand,
  exposeCommand,
  scaleCommand,
  autoscaleCommand,
  taintCommand,
  clusterInfoCommand,
  authCanICommand,
  explainCommand,
  getCommand,
  editCommand,
  rolloutHistoryCommand,
  rolloutPauseCommand,
  rolloutRestartCommand,
  rolloutResumeCommand,
  rolloutStatusCommand,
  rolloutUndoCommand,
  cordonCommand,
  uncordonCommand,
  drainCommand,
  describeCommand,
  logsCommand,
  execCommand,
  eventsCommand,
  topNodeCommand,
  topPodCommand,
  applyCommand,
  labelCommand,
  annotateCommand,
  configCurrentContextCommand,
  configGetContextsCommand,
  configSetContextCommand,
  configUseContextCommand,
  configViewCommand,
  apiResourcesCommand,
  apiVersionsCommand,
  versionCommand,
];
