// The kubelet's connection to the API server. Partitioning it (setReachable(false)) makes every request fail
// as a dial would, and ends open watches with an error so the reflector starts relisting (and keeps failing
// until the network returns) — the pods keep running meanwhile.
import type { ApiRequest, ApiResponse } from '../apiserver/types';
import { StatusError } from '../../shared/api/status';
import type { WatchEvent } from '../../shared/api/types';
import { WatchEventType } from '../../shared/api/types';
import type { ApiServerPort, WatchHandle, WatchHandler } from '../client/client';
import type { Clock } from '../sim/clock';

interface OpenWatch {
  inner: WatchHandle;
  handler: WatchHandler;
  closed: boolean;
}

export class KubeletConnection implements ApiServerPort {
  private reachable = true;
  private readonly watches = new Set<OpenWatch>();

  constructor(
    private readonly server: ApiServerPort,
    private readonly clock: Clock,
    private readonly apiServerAddress = '192.168.49.1:8443',
  ) {}

  get isReachable(): boolean {
    return this.reachable;
  }

  private unreachable(req: ApiRequest): StatusError {
    const path = req.resource ? `/${req.group ? `apis/${req.group}` : 'api'}/${req.version}/${req.namespace ? `namespaces/${req.namespace}/` : ''}${req.resource}${req.name ? `/${req.name}` : ''}` : '/';
    return new StatusError({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `Get "https://${this.apiServerAddress}${path}": dial tcp ${this.apiServerAddress}: connect: no route to host`,
      reason: 'ServiceUnavailable',
      code: 503,
    });
  }

  setReachable(reachable: boolean): void {
    if (this.reachable === reachable) return;
    this.reachable = reachable;
    if (reachable) return;
    for (const w of [...this.watches]) {
      w.closed = true;
      w.inner.stop();
      this.watches.delete(w);
      const error: WatchEvent = { type: WatchEventType.Error, object: this.unreachable({ verb: 'watch', group: '', version: 'v1', resource: '' } as ApiRequest).status as never };
      this.clock.defer(() => w.handler([error]), 'kubelet connection lost');
    }
  }

  handle(req: ApiRequest): ApiResponse {
    if (!this.reachable) throw this.unreachable(req);
    return this.server.handle(req);
  }

  watch(req: ApiRequest, handler: WatchHandler): WatchHandle {
    if (!this.reachable) throw this.unreachable(req);
    const open: OpenWatch = { inner: undefined as unknown as WatchHandle, handler, closed: false };
    open.inner = this.server.watch(req, (events) => {
      if (!open.closed) handler(events);
    });
    this.watches.add(open);
    return {
      stop: () => {
        open.closed = true;
        open.inner.stop();
        this.watches.delete(open);
      },
    };
  }

  /** Closes every watch (the kubelet stopped). */
  closeAll(): void {
    for (const w of this.watches) {
      w.closed = true;
      w.inner.stop();
    }
    this.watches.clear();
  }
}
