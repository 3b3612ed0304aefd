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
import { defaultUserAgent } from './user-agent';

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
}

/**
 * One component's network path to an API server port. While the path is cut (or the server behind it is not
 * serving) every request fails with `refusal`, and cutting it ends the open watches the way a dropped TCP
 * stream ends them: one ERROR event, delivered later.
 */
export class ApiConnection implements ApiServerPort {
  private reachable = true;
  private readonly watches = new Set<OpenWatch>();

  constructor(
    private readonly target: ApiServerPort,
    private readonly clock: Clock,
    private readonly refusal: (req: ApiRequest | undefined) => StatusError = connectionRefused,
    private readonly serving: () => boolean = () => true,
    /** What the component sends as User-Agent (on requests that carry none of their own); by default the target's. */
    readonly userAgent: string | undefined = target.userAgent,
  ) {}

  get isReachable(): boolean {
    return this.reachable;
  }

  /** Cuts (false) or restores (true) this path. */
  setReachable(reachable: boolean): void {
    if (this.reachable === reachable) return;
    this.reachable = reachable;
    if (!reachable) this.endWatches();
  }

  /** Ends every open watch with an ERROR event (the path or the server went away). */
  endWatches(): void {
    for (const w of [...this.watches]) {
      this.watches.delete(w);
      w.inner.stop();
      const status = this.refusal(undefined).status;
      this.clock.defer(() => w.handler([{ type: WatchEventType.Error, object: status as never }]), 'watch ended');
    }
  }

  /** Stops every open watch silently (the component itself stopped). */
  closeAll(): void {
    for (const w of this.watches) w.inner.stop();
    this.watches.clear();
  }

  handle(req: ApiRequest): ApiResponse {
    if (!this.reachable || !this.serving()) throw this.refusal(req);
    return this.target.handle(this.withUserAgent(req));
  }

  private withUserAgent(req: ApiRequest): ApiRequest {
    return this.userAgent === undefined || req.userAgent !== undefined ? req : { ...req, userAgent: this.userAgent };
  }

  watch(req: ApiRequest, handler: WatchHandler): WatchHandle {
    if (!this.reachable || !this.serving()) throw this.refusal(req);
    const entry: OpenWatch = { handler, inner: { stop: () => undefined } };
    this.watches.add(entry);
    entry.inner = this.target.watch(this.withUserAgent(req), (events) => {
      if (this.watches.has(entry)) handler(events);
    });
    return {
      stop: () => {
        this.watches.delete(entry);
        entry.inner.stop();
      },
    };
  }
}

/** The API server side of the network: whether it is serving at all, and every component's connection. */
export class ApiServerEndpoint {
  private serving = true;
  private readonly connections = new Set<ApiConnection>();

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
    for (const c of this.connections) c.endWatches();
  }

  start(): void {
    this.serving = true;
  }

  /** A connection for one component (the scheduler, the controller manager, the kubelets, the page). */
  connect(name: string): ApiConnection {
    const connection = new ApiConnection(this.server, this.clock, connectionRefused, () => this.serving, defaultUserAgent(name));
    this.connections.add(connection);
    return connection;
  }
}
