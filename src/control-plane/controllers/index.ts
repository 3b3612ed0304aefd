// The controllers kube-controller-manager runs by default, in its order. Each entry constructs one controller
// over the manager's shared informers; the ControllerManager starts and crash-restarts them as a group.
import type { ControllerDescriptor, RunningController } from './controller-context';
import { ServiceAccountsController, ServiceAccountControllerName } from './serviceaccount/serviceaccounts-controller';
import type { BaseController } from './shared/controller';

/** Adapts the common controller shape (a BaseController plus shutDown) to a RunningController. */
function single(name: string, c: { controller: BaseController; shutDown(): void }): RunningController {
  c.controller.run();
  return { name, queues: () => [c.controller.queue.snapshot()], shutDown: () => c.shutDown() };
}

export const defaultControllers: readonly ControllerDescriptor[] = [
  {
    name: ServiceAccountControllerName,
    start: (ctx) => single(ServiceAccountControllerName, new ServiceAccountsController(ctx)),
  },
];
