// staging/src/k8s.io/endpointslice reconciler.go: turns a Service's pods into EndpointSlices with as few writes as
// it can.
//
//   per address type, per distinct set of resolved ports (named targetPorts can differ between pods):
//     1. keep each existing slice's endpoints that are still desired (updated if they changed), drop the rest
//     2. top up the slices already being updated, fullest first
//     3. put what is left into the unchanged slice it fits most tightly, else into new slices (100 per slice)
//   slices left empty are deleted — or recycled as the new slices, to save a create and a delete
//   no slice at all: one placeholder slice with no ports and no endpoints
import type { Node, Pod, Service } from 'kubernetes-types/core/v1';
import type { Endpoint, EndpointPort, EndpointSlice } from 'kubernetes-types/discovery/v1';
import type { Client } from '../../client/client';
import type { Lister } from '../../informers/shared-informer';
import { isStatusError, StatusReason } from '../../../shared/api/status';
import { hasStatusCause, NamespaceTerminatingCause } from '../serviceaccount/serviceaccounts-controller';
import type { EndpointSliceTracker } from './endpointslice-tracker';
import {
  AnnotationLastChangeTriggerTime,
  getAddressTypesForService,
  getEndpointPorts,
  getSliceToFill,
  newEndpointSlice,
  podToEndpoint,
  portsKey,
  sameMap,
  setEndpointSliceLabels,
  shouldPodBeInEndpoints,
  type AddressType,
} from './endpointslice-util';
import { formatRFC3339Nano } from './trigger-time-tracker';

/** --max-endpoints-per-slice default. */
export const DefaultMaxEndpointsPerSlice = 100;

export interface ReconcilerOptions {
  client: Client;
  nodeLister: Lister<Node>;
  tracker: EndpointSliceTracker;
  maxEndpointsPerSlice?: number;
}

/** The identity of an endpoint within a slice set (endpointsliceutil's endpoint hash: addresses + target). */
function endpointKey(ep: Endpoint): string {
  return JSON.stringify([ep.addresses, ep.targetRef?.namespace ?? '', ep.targetRef?.name ?? '', ep.targetRef?.uid ?? '']);
}

/** EndpointsEqualBeyondHash: conditions, hostname, zone, nodeName, target and addresses. */
function endpointsEqual(a: Endpoint, b: Endpoint): boolean {
  const norm = (e: Endpoint) =>
    JSON.stringify([
      e.addresses,
      e.conditions?.ready ?? null,
      e.conditions?.serving ?? null,
      e.conditions?.terminating ?? null,
      e.hostname ?? '',
      e.zone ?? '',
      e.nodeName ?? '',
      e.targetRef?.namespace ?? '',
      e.targetRef?.name ?? '',
      e.targetRef?.uid ?? '',
    ]);
  return norm(a) === norm(b);
}

function ownedBy(slice: EndpointSlice, service: Service): boolean {
  return (slice.metadata?.ownerReferences ?? []).some(
    (r) => r.kind === 'Service' && r.apiVersion === 'v1' && r.uid === service.metadata?.uid,
  );
}

function clone<T>(v: T): T {
  return structuredClone(v);
}

/** An ordered set of desired endpoints (EndpointSet); PopAny takes them in pod order for determinism. */
class EndpointSet {
  private readonly items = new Map<string, Endpoint>();
  insert(ep: Endpoint): void {
    this.items.set(endpointKey(ep), ep);
  }
  get(ep: Endpoint): Endpoint | undefined {
    return this.items.get(endpointKey(ep));
  }
  delete(ep: Endpoint): void {
    this.items.delete(endpointKey(ep));
  }
  popAny(): Endpoint {
    const [k, v] = this.items.entries().next().value as [string, Endpoint];
    this.items.delete(k);
    return v;
  }
  get size(): number {
    return this.items.size;
  }
}

interface Plan {
  toCreate: EndpointSlice[];
  toUpdate: EndpointSlice[];
  toDelete: EndpointSlice[];
}

export class Reconciler {
  private readonly client: Client;
  private readonly nodeLister: Lister<Node>;
  private readonly tracker: EndpointSliceTracker;
  readonly maxEndpointsPerSlice: number;

  constructor(options: ReconcilerOptions) {
    this.client = options.client;
    this.nodeLister = options.nodeLister;
    this.tracker = options.tracker;
    this.maxEndpointsPerSlice = options.maxEndpointsPerSlice ?? DefaultMaxEndpointsPerSlice;
  }

  /** Reconcile: brings the service's slices in line with its pods; throws the aggregated errors. */
  reconcile(service: Service, pods: readonly Pod[], existingSlices: readonly EndpointSlice[], triggerTime: number | undefined): void {
    const errs: string[] = [];
    const supported = new Set<string>(getAddressTypesForService(service));
    const byType = new Map<string, EndpointSlice[]>();
    const unsupported: EndpointSlice[] = [];
    for (const s of existingSlices) {
      if (!supported.has(s.addressType)) {
        unsupported.push(s);
        continue;
      }
      const list = byType.get(s.addressType) ?? [];
      list.push(s);
      byType.set(s.addressType, list);
    }
    for (const t of supported) {
      try {
        this.reconcileByAddressType(service, pods, byType.get(t) ?? [], triggerTime, t as AddressType);
      } catch (err) {
        errs.push(err instanceof Error ? err.message : String(err));
      }
    }
    const ns = service.metadata?.namespace ?? '';
    for (const s of unsupported) {
      try {
        this.client.endpointSlices.delete(s.metadata?.name ?? '', { namespace: ns });
        this.tracker.expectDeletion(s);
      } catch (err) {
        errs.push(`error deleting ${s.metadata?.name} EndpointSlice for Service ${ns}/${service.metadata?.name}: ${(err as Error).message}`);
      }
    }
    if (errs.length === 1) throw new Error(errs[0]);
    if (errs.length > 1) throw new Error(`[${errs.join(', ')}]`);
  }

  private reconcileByAddressType(
    service: Service,
    pods: readonly Pod[],
    existingSlices: readonly EndpointSlice[],
    triggerTime: number | undefined,
    addressType: AddressType,
  ): void {
    const errs: string[] = [];
    const plan: Plan = { toCreate: [], toUpdate: [], toDelete: [] };
    const existingByPorts = new Map<string, EndpointSlice[]>();
    for (const s of existingSlices) {
      if (!ownedBy(s, service)) {
        plan.toDelete.push(s);
        continue;
      }
      const k = portsKey(s.ports);
      existingByPorts.set(k, [...(existingByPorts.get(k) ?? []), s]);
    }

    const desiredPorts = new Map<string, EndpointPort[]>();
    const desiredByPorts = new Map<string, EndpointSet>();
    for (const pod of pods) {
      if (!shouldPodBeInEndpoints(pod, true)) continue;
      const ports = getEndpointPorts(service, pod);
      const k = portsKey(ports);
      if (!desiredByPorts.has(k)) {
        desiredByPorts.set(k, new EndpointSet());
        desiredPorts.set(k, ports);
      }
      const nodeName = pod.spec?.nodeName ?? '';
      const node = this.nodeLister.get(undefined, nodeName);
      if (!node) {
        // Skip the pod but retry the service later: the node may just not be in the cache yet.
        errs.push(`skipping Pod ${pod.metadata?.name} for Service ${service.metadata?.namespace}/${service.metadata?.name}: Node ${nodeName} Not Found`);
        continue;
      }
      const ep = podToEndpoint(pod, node, service, addressType);
      if ((ep.addresses ?? []).length > 0) desiredByPorts.get(k)!.insert(ep);
    }

    for (const [k, desired] of desiredByPorts) {
      const p = this.reconcileByPortMapping(service, existingByPorts.get(k) ?? [], desired, desiredPorts.get(k)!, addressType);
      plan.toCreate.push(...p.toCreate);
      plan.toUpdate.push(...p.toUpdate);
      plan.toDelete.push(...p.toDelete);
    }
    // Slices whose port set no pod has any more.
    for (const [k, slices] of existingByPorts) if (!desiredByPorts.has(k)) plan.toDelete.push(...slices);

    // No slice would exist: keep (or create) one placeholder so the service visibly has no endpoints.
    if (existingSlices.length === plan.toDelete.length && plan.toCreate.length < 1) {
      const placeholder = newEndpointSlice(service, [], addressType);
      if (plan.toDelete.length === 1 && isPlaceholderOf(plan.toDelete[0], placeholder)) plan.toDelete = [];
      else plan.toCreate.push(placeholder);
    }

    this.finalize(service, plan, triggerTime);
    if (errs.length > 0) throw new Error(errs.join('; '));
  }

  private reconcileByPortMapping(
    service: Service,
    existingSlices: readonly EndpointSlice[],
    desired: EndpointSet,
    ports: EndpointPort[],
    addressType: AddressType,
  ): Plan {
    const slicesByName = new Map<string, EndpointSlice>();
    const toUpdate = new Set<string>();
    const toDelete = new Set<string>();
    const unchanged = new Set<string>();

    // 1. Keep the desired endpoints of each slice, updated; drop the rest.
    for (const existing of existingSlices) {
      const name = existing.metadata?.name ?? '';
      slicesByName.set(name, existing);
      const kept: Endpoint[] = [];
      let endpointUpdated = false;
      for (const ep of existing.endpoints ?? []) {
        const got = desired.get(ep);
        if (!got) continue;
        kept.push(got);
        if (!endpointsEqual(got, ep)) endpointUpdated = true;
        desired.delete(ep);
      }
      const { labels, changed } = setEndpointSliceLabels(existing, service);
      if (endpointUpdated || kept.length !== (existing.endpoints ?? []).length) {
        if (kept.length === 0) toDelete.add(name);
        else {
          const s = clone(existing);
          s.endpoints = kept;
          s.metadata = { ...s.metadata, labels };
          slicesByName.set(name, s);
          toUpdate.add(name);
        }
      } else if (changed) {
        const s = clone(existing);
        s.metadata = { ...s.metadata, labels };
        slicesByName.set(name, s);
        toUpdate.add(name);
      } else unchanged.add(name);
    }

    // 2. Top up the slices being updated anyway, fullest first.
    if (desired.size > 0 && toUpdate.size > 0) {
      const slices = [...toUpdate].map((n) => slicesByName.get(n)!).sort((a, b) => (b.endpoints ?? []).length - (a.endpoints ?? []).length);
      for (const s of slices) {
        while (desired.size > 0 && (s.endpoints ?? []).length < this.maxEndpointsPerSlice) (s.endpoints ??= []).push(desired.popAny());
      }
    }

    // 3. The rest: into the unchanged slice it fits most tightly, else into new slices.
    const toCreate: EndpointSlice[] = [];
    while (desired.size > 0) {
      let slice: EndpointSlice | undefined;
      if (desired.size < this.maxEndpointsPerSlice && unchanged.size > 0) {
        const found = getSliceToFill([...unchanged].map((n) => slicesByName.get(n)!), desired.size, this.maxEndpointsPerSlice);
        if (found) {
          slice = clone(found);
          slicesByName.set(found.metadata?.name ?? '', slice);
        }
      }
      slice ??= newEndpointSlice(service, ports, addressType);
      while (desired.size > 0 && (slice.endpoints ?? []).length < this.maxEndpointsPerSlice) (slice.endpoints ??= []).push(desired.popAny());
      if (slice.metadata?.name) {
        toUpdate.add(slice.metadata.name);
        unchanged.delete(slice.metadata.name);
      } else toCreate.push(slice);
    }

    return {
      toCreate,
      toUpdate: [...toUpdate].map((n) => slicesByName.get(n)!),
      toDelete: [...toDelete].map((n) => slicesByName.get(n)!),
    };
  }

  /** finalize: recycles slices to delete as the ones to create, then writes creates, updates, deletes. */
  private finalize(service: Service, plan: Plan, triggerTime: number | undefined): void {
    const ns = service.metadata?.namespace ?? '';
    const svcName = service.metadata?.name ?? '';
    const toCreate = [...plan.toCreate];
    const toUpdate = [...plan.toUpdate];
    const toDelete = [...plan.toDelete];
    for (let i = 0; i < toDelete.length; ) {
      if (toCreate.length === 0) break;
      const del = toDelete[i];
      const created = toCreate[toCreate.length - 1];
      if (del.addressType === created.addressType && ownedBy(del, service)) {
        // The new slice takes the old one's name: an unconditional update replaces it whole.
        created.metadata = { ...created.metadata, name: del.metadata?.name };
        toCreate.pop();
        toUpdate.push(created);
        toDelete.splice(i, 1);
      } else i++;
    }

    // No new slices for a Service being deleted (they would be garbage collected at once).
    if (!service.metadata?.deletionTimestamp) {
      for (const s of toCreate) {
        setTriggerTime(s, triggerTime);
        try {
          this.tracker.update(this.client.endpointSlices.create(s, { namespace: ns }));
        } catch (err) {
          // Creates in a terminating namespace keep failing: drop the item.
          if (hasStatusCause(err, NamespaceTerminatingCause)) return;
          throw new Error(`failed to create EndpointSlice for Service ${ns}/${svcName}: ${(err as Error).message}`);
        }
      }
    }
    for (const s of toUpdate) {
      setTriggerTime(s, triggerTime);
      try {
        this.tracker.update(this.client.endpointSlices.update(s, { namespace: ns }));
      } catch (err) {
        throw new Error(`failed to update ${s.metadata?.name} EndpointSlice for Service ${ns}/${svcName}: ${(err as Error).message}`);
      }
    }
    for (const s of toDelete) {
      try {
        this.client.endpointSlices.delete(s.metadata?.name ?? '', { namespace: ns });
        this.tracker.expectDeletion(s);
      } catch (err) {
        if (isStatusError(err, StatusReason.NotFound)) continue;
        throw new Error(`failed to delete ${s.metadata?.name} EndpointSlice for Service ${ns}/${svcName}: ${(err as Error).message}`);
      }
    }
  }
}

/** placeholderSliceCompare: same namespace, labels and address type, no ports and no endpoints. */
function isPlaceholderOf(slice: EndpointSlice, placeholder: EndpointSlice): boolean {
  return (
    slice.metadata?.namespace === placeholder.metadata?.namespace &&
    sameMap(slice.metadata?.labels, placeholder.metadata?.labels) &&
    slice.addressType === placeholder.addressType &&
    (slice.ports ?? []).length === 0 &&
    (slice.endpoints ?? []).length === 0
  );
}

/** addTriggerTimeAnnotation: set to the trigger time, or removed when there is none. */
function setTriggerTime(slice: EndpointSlice, triggerTime: number | undefined): void {
  const annotations = { ...(slice.metadata?.annotations ?? {}) };
  if (triggerTime !== undefined) annotations[AnnotationLastChangeTriggerTime] = formatRFC3339Nano(triggerTime);
  else delete annotations[AnnotationLastChangeTriggerTime];
  slice.metadata = { ...slice.metadata, annotations };
}
