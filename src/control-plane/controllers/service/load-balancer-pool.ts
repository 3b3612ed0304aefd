// The simulated cloud behind Services of type LoadBalancer: like cloud-provider-kind or MetalLB in layer-2 mode on
// minikube's node network (192.168.49.0/24), each load balancer gets one external IPv4 address from a fixed pool,
// 192.168.49.200–192.168.49.254, always the lowest free one (deterministic), and serves it as a VIP.
//
// The cloud's state is "which service (uid) holds which address". The controller rebuilds it from the Services'
// status after a restart (adopt), as a real cloud would still hold the load balancers it made.

/** First and last address of the pool (inclusive). */
export const LoadBalancerPoolStart = '192.168.49.200';
export const LoadBalancerPoolEnd = '192.168.49.254';
export const LoadBalancerPoolRange = `${LoadBalancerPoolStart}-${LoadBalancerPoolEnd}`;

const prefix = '192.168.49.';
const first = 200;
const last = 254;

export function inLoadBalancerPool(ip: string): boolean {
  if (!ip.startsWith(prefix)) return false;
  const n = Number(ip.slice(prefix.length));
  return Number.isInteger(n) && String(n) === ip.slice(prefix.length) && n >= first && n <= last;
}

export class LoadBalancerPool {
  /** service uid → address. */
  private readonly byService = new Map<string, string>();

  /** The address the service's load balancer holds, if it has one (GetLoadBalancer's "exists"). */
  get(uid: string): string | undefined {
    return this.byService.get(uid);
  }

  /** Records an existing load balancer (rebuilding the cloud state); false if the address is taken by another. */
  adopt(uid: string, ip: string): boolean {
    if (!inLoadBalancerPool(ip)) return false;
    const holder = this.holderOf(ip);
    if (holder !== undefined && holder !== uid) return false;
    this.byService.set(uid, ip);
    return true;
  }

  /**
   * EnsureLoadBalancer's address: the one the service already holds, the requested one (spec.loadBalancerIP)
   * when it is in the pool and free, else the lowest free one. Throws when none is left or the request can't be met.
   */
  allocate(uid: string, requested?: string): string {
    const held = this.byService.get(uid);
    if (held && (!requested || requested === held)) return held;
    if (requested) {
      if (!inLoadBalancerPool(requested)) throw new Error(`requested IP ${requested} is not in the load balancer pool ${LoadBalancerPoolRange}`);
      const holder = this.holderOf(requested);
      if (holder !== undefined && holder !== uid) throw new Error(`requested IP ${requested} is already allocated`);
      this.release(uid);
      this.byService.set(uid, requested);
      return requested;
    }
    for (let n = first; n <= last; n++) {
      const ip = `${prefix}${n}`;
      if (this.holderOf(ip) === undefined) {
        this.byService.set(uid, ip);
        return ip;
      }
    }
    throw new Error(`no available IPs in the load balancer pool ${LoadBalancerPoolRange}`);
  }

  /** EnsureLoadBalancerDeleted: frees the service's address; whether it had one. */
  release(uid: string): boolean {
    return this.byService.delete(uid);
  }

  /** Addresses in use, lowest first. */
  allocated(): string[] {
    return [...this.byService.values()].sort((a, b) => Number(a.slice(prefix.length)) - Number(b.slice(prefix.length)));
  }

  private holderOf(ip: string): string | undefined {
    for (const [uid, held] of this.byService) if (held === ip) return uid;
    return undefined;
  }
}
