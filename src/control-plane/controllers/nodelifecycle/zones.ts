// Zones and the zone-disruption rule of the node lifecycle controller: nodes are grouped by region and zone
// (k8s.io/component-helpers/node/topology GetZoneKey); a zone with no Ready node is FullDisruption, one with at
// least unhealthyZoneThreshold of its nodes (and more than 2) not Ready is PartialDisruption.
import type { Node, NodeCondition } from 'kubernetes-types/core/v1';

export const ZoneState = {
  Initial: 'Initial',
  Normal: 'Normal',
  FullDisruption: 'FullDisruption',
  PartialDisruption: 'PartialDisruption',
} as const;
export type ZoneState = (typeof ZoneState)[keyof typeof ZoneState];

export const LabelTopologyZone = 'topology.kubernetes.io/zone';
export const LabelTopologyRegion = 'topology.kubernetes.io/region';
export const LabelFailureDomainBetaZone = 'failure-domain.beta.kubernetes.io/zone';
export const LabelFailureDomainBetaRegion = 'failure-domain.beta.kubernetes.io/region';
/** Nodes with this label are left out of the disruption computation. */
export const LabelNodeDisruptionExclusion = 'node.kubernetes.io/exclude-disruption';

/**
 * GetZoneKey: "region:\0:zone" ("" when the node has neither label). The deprecated failure-domain labels win
 * over the topology ones, as in Kubernetes.
 */
export function getZoneKey(node: Node): string {
  const labels = node.metadata?.labels;
  if (!labels) return '';
  const zone = labels[LabelFailureDomainBetaZone] ?? labels[LabelTopologyZone] ?? '';
  const region = labels[LabelFailureDomainBetaRegion] ?? labels[LabelTopologyRegion] ?? '';
  if (region === '' && zone === '') return '';
  return `${region}:\u0000:${zone}`;
}

/** The zone's readable name for traces: "zone-a", "region-1/zone-a", or "" for nodes without zone labels. */
export function zoneDisplayName(zoneKey: string): string {
  const [region, zone] = zoneKey.split(':\u0000:');
  if (zone === undefined) return zoneKey;
  return region ? `${region}/${zone}` : zone;
}

export function isNodeExcludedFromDisruptionChecks(node: Node): boolean {
  return node.metadata?.labels?.[LabelNodeDisruptionExclusion] !== undefined;
}

/** ComputeZoneState: the number of not-Ready nodes and the zone's state. */
export function computeZoneState(
  readyConditions: readonly (NodeCondition | undefined)[],
  unhealthyZoneThreshold: number,
): { notReady: number; state: ZoneState } {
  let ready = 0;
  let notReady = 0;
  for (const c of readyConditions) {
    if (c?.status === 'True') ready++;
    else notReady++;
  }
  if (ready === 0 && notReady > 0) return { notReady, state: ZoneState.FullDisruption };
  if (notReady > 2 && notReady / (notReady + ready) >= unhealthyZoneThreshold) return { notReady, state: ZoneState.PartialDisruption };
  return { notReady, state: ZoneState.Normal };
}
