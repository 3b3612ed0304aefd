// What the deployment controller's sync functions (sync.ts, rolling.ts, recreate.ts, progress.ts) need of it —
// the Go methods on *DeploymentController become functions over this.
import type { TraceSink } from '../../../shared/protocol/trace';
import type { Client } from '../../client/client';
import type { EventRecorder } from '../../client/record/event-recorder';
import type { Lister } from '../../informers/shared-informer';
import type { Clock } from '../../sim/clock';
import type { DeploymentObj, ReplicaSetObj } from './deployment-util';

export const DeploymentControllerName = 'deployment-controller';

export interface DeploymentContext {
  client: Client;
  clock: Clock;
  recorder: EventRecorder;
  trace: TraceSink;
  rsLister: Lister<ReplicaSetObj>;
  /** Syncs the deployment again after delayMs of virtual time (progress checks). */
  enqueueAfter(d: DeploymentObj, delayMs: number): void;
  enqueueRateLimited(d: DeploymentObj): void;
}
