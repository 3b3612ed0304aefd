// Resource lists as kubectl's resourcehelper sums them: PodRequestsAndLimits (containers + sidecars, the largest
// init container, overhead) with exact quantity arithmetic.
import type { Container, Pod } from 'kubernetes-types/core/v1';
import { addQuantities, compareQuantities, parseQuantity, type Quantity } from '../../shared/lib/quantity';

export type ResourceList = Map<string, Quantity>;

function parse(v: unknown): Quantity | undefined {
  try {
    return parseQuantity(String(v));
  } catch {
    return undefined;
  }
}

function add(list: ResourceList, values: Record<string, unknown> | ResourceList | undefined): void {
  const entries = values instanceof Map ? [...values.entries()] : Object.entries(values ?? {}).map(([k, v]) => [k, parse(v)] as const);
  for (const [name, q] of entries) {
    if (!q) continue;
    const current = list.get(name);
    list.set(name, current ? addQuantities(current, q) : q);
  }
}

function maxInto(list: ResourceList, values: ResourceList): void {
  for (const [name, q] of values) {
    const current = list.get(name);
    if (!current || compareQuantities(q, current) > 0) list.set(name, q);
  }
}

function sum(pod: Pod, pick: (c: Container) => Record<string, unknown> | undefined, isLimits: boolean): ResourceList {
  const total: ResourceList = new Map();
  for (const c of pod.spec?.containers ?? []) add(total, pick(c));
  const sidecars: ResourceList = new Map();
  const inits: ResourceList = new Map();
  for (const c of pod.spec?.initContainers ?? []) {
    let each: ResourceList;
    if (c.restartPolicy === 'Always') {
      add(total, pick(c));
      add(sidecars, pick(c));
      each = sidecars;
    } else {
      each = new Map();
      add(each, pick(c));
      add(each, sidecars);
    }
    maxInto(inits, each);
  }
  maxInto(total, inits);
  const overhead = pod.spec?.overhead;
  if (overhead) {
    if (!isLimits) add(total, overhead);
    else
      for (const [name, v] of Object.entries(overhead)) {
        const current = total.get(name);
        const q = parse(v);
        if (current && q && current.unscaled !== 0n) total.set(name, addQuantities(current, q));
      }
  }
  return total;
}

export function podRequestsAndLimits(pod: Pod): { requests: ResourceList; limits: ResourceList } {
  return {
    requests: sum(pod, (c) => c.resources?.requests, false),
    limits: sum(pod, (c) => c.resources?.limits, true),
  };
}

export function toResourceList(values: Record<string, unknown> | undefined): ResourceList {
  const list: ResourceList = new Map();
  add(list, values);
  return list;
}

export function addResourceLists(into: ResourceList, more: ResourceList): void {
  add(into, more);
}
