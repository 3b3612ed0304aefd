// nodeTree (pkg/scheduler/backend/cache/node_tree.go): node names grouped by zone; list() interleaves the
// zones (one node of each zone in turn), so the nodes tried first for a pod are spread over zones even when
// only a percentage of a large cluster is scored.
import type { NodeObject } from '../framework/types';

/** utilnode.GetZoneKey: "region:\x00:zone" from the topology labels, "" when the node has neither. */
export function zoneKey(node: NodeObject): string {
  const labels = node.metadata.labels ?? {};
  const region = labels['topology.kubernetes.io/region'] ?? labels['failure-domain.beta.kubernetes.io/region'] ?? '';
  const zone = labels['topology.kubernetes.io/zone'] ?? labels['failure-domain.beta.kubernetes.io/zone'] ?? '';
  if (region === '' && zone === '') return '';
  return `${region}:\u0000:${zone}`;
}

export class NodeTree {
  private readonly tree = new Map<string, string[]>();
  private readonly zoneOf = new Map<string, string>();

  get numNodes(): number {
    return this.zoneOf.size;
  }

  addNode(node: NodeObject): void {
    const name = node.metadata.name ?? '';
    if (this.zoneOf.has(name)) return;
    const zone = zoneKey(node);
    let names = this.tree.get(zone);
    if (!names) this.tree.set(zone, (names = []));
    names.push(name);
    this.zoneOf.set(name, zone);
  }

  removeNode(name: string): void {
    const zone = this.zoneOf.get(name);
    if (zone === undefined) return;
    const names = this.tree.get(zone)!;
    names.splice(names.indexOf(name), 1);
    if (names.length === 0) this.tree.delete(zone);
    this.zoneOf.delete(name);
  }

  /** Returns whether the node moved to another zone. */
  updateNode(oldNode: NodeObject | undefined, newNode: NodeObject): boolean {
    const name = newNode.metadata.name ?? '';
    const zone = zoneKey(newNode);
    if (this.zoneOf.get(name) === zone) return false;
    if (oldNode) this.removeNode(name);
    this.addNode(newNode);
    return true;
  }

  /** Every node name, zones interleaved. */
  list(): string[] {
    const zones = [...this.tree.values()];
    const out: string[] = [];
    for (let i = 0; out.length < this.zoneOf.size; i++) {
      for (const names of zones) if (i < names.length) out.push(names[i]);
    }
    return out;
  }
}
