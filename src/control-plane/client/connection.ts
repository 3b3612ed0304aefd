// The network between a component and the API server, so faults can be injected where they happen on a real
// cluster: the API server can be stopped (every component's requests fail and its watches end), and one
// component can be partitioned from it (a kubelet that keeps running its pods but cannot report). Components
// see exactly what client-go sees: requests fail with a connection error, watches end, informers relist with
// back-off once the server answers again.
import { StatusReason, StatusError, type Status } from '../../shared/api/status';
import { WatchEventType } from '../../shared/api/types';
import type { ApiRequest, ApiResponse } from '../../shared/api/request';
import type { Clock } from '../sim/clock';
import type { ApiServerPort, WatchHandle, WatchHandler } from './client';

/** The API server's address as in-cluster clients dial it (the kubernetes Service's ClusterIP). */
export const apiServerAddress = '10.96.0.1:443';

/** What client-go reports when nothing listens: `dial tcp 10.96.0.1:443: connect: connection refused`. */
export function connectionRefused(): StatusError {
  const status: Status = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `dial tcp ${apiServerAddress}: connect: connection refused`,
    reason: StatusReason.ServiceUnavailable,
    code: 503,
  };
  return new StatusError(status);
}

interface OpenWatch {
  handler: WatchHandler;
  inner: WatchHandle;
  connection: ApiConnection;
}

/** The API server side of the network: whether it is serving at all, and every open watch stream. */
export class ApiServerEndpoint {
  private serving = true;
  private readonly watches = new Set<OpenWatch>();

  constructor(
    readonly server: ApiServerPort,
    private readonly clock: Clock,
  ) {}

  get isServing(): boolean {
    return this.serving;
  }

  /** Stops serving: every open watch ends with an error, later requests are refused until start(). */
  stop(): void {
    if (!this.serving) return;
    this.serving = false;
    this.endWatches(() => true);
  }

  start(): void {
    this.serving = true;
  }

  /** A connection for one component (each kubelet, the scheduler, the controller manager, the page). */
  connect(name: string): ApiConnection {
    return new ApiConnection(this, name);
  }

  /** @internal */
  open(connection: ApiConnection, req: ApiRequest, handler: WatchHandler): WatchHandle {
    const entry: OpenWatch = { handler, connection, inner: { stop: () => undefined } };
    this.watches.add(entry);
    entry.inner = this.server.watch(req, (events) => {
      if (this.watches.has(entry)) handler(events);
    });
    return {
      stop: () => {
        this.watches.delete(entry);
        entry.inner.stop();
      },
    };
  }

  /** @internal Ends the matching watches the way a dropped TCP stream ends them: one ERROR event, delivered later. */
  endWatches(which: (w: OpenWatch) => boolean): void {
    for (const w of [...this.watches]) {
      if (!which(w)) continue;
      this.watches.delete(w);
      w.inner.stop();
      this.clock.defer(() => w.handler([{ type: WatchEventType.Error, object: connectionRefused().status as never }]), 'watch ended');
    }
  }
}

export class ApiConnection implements ApiServerPort {
  private reachable = true;

  constructor(
    private readonly endpoint: ApiServerEndpoint,
    readonly name: string,
  ) {}

  get isReachable(): boolean {
    return this.reachable;
  }

  /** Cuts (false) or restores (true) this component's network path to the API server. */
  setReachable(reachable: boolean): void {
    if (this.reachable === reachable) return;
    this.reachable = reachable;
    if (!reachable) this.endpoint.endWatches((w) => w.connection === this);
  }

  handle(req: ApiRequest): ApiResponse {
    if (!this.reachable || !this.endpoint.isServing) throw connectionRefused();
    return this.endpoint.server.handle(req);
  }

  watch(req: ApiRequest, handler: WatchHandler): WatchHandle {
    if (!this.reachable || !this.endpoint.isServing) throw connectionRefused();
    return this.endpoint.open(this, req, handler);
  }
}
