// Answers the page's questions about the running components (sim/components, sim/decisions, trace/why).
import { newBadRequest } from '../shared/api/status';
import type { ComponentsSnapshot, DecisionsParams, SchedulingDecisionView, WhyParams, WhyResult } from '../shared/protocol/introspection';
import type { ServableCluster } from './serve';

export function describeComponents(_cluster: ServableCluster): ComponentsSnapshot {
  throw newBadRequest('sim/components is not available yet');
}

export function schedulingDecisions(_cluster: ServableCluster, _params: DecisionsParams): SchedulingDecisionView[] {
  throw newBadRequest('sim/decisions is not available yet');
}

export function whyExists(_cluster: ServableCluster, _params: WhyParams): WhyResult {
  throw newBadRequest('trace/why is not available yet');
}
