// namespaceConditionUpdater (pkg/controller/namespace/deletion/namespace_resources_deleter.go's companion
// status_condition_utils.go): turns what one deletion pass found into the five deletion conditions of a
// Terminating Namespace. Every pass writes all five: True with the failure, or False with the "ok" reason and
// message, so a condition that cleared is seen to clear.
import type { Namespace, NamespaceCondition } from 'kubernetes-types/core/v1';

export const NamespaceConditionType = {
  DeletionDiscoveryFailure: 'NamespaceDeletionDiscoveryFailure',
  DeletionGVParsingFailure: 'NamespaceDeletionGroupVersionParsingFailure',
  DeletionContentFailure: 'NamespaceDeletionContentFailure',
  ContentRemaining: 'NamespaceContentRemaining',
  FinalizersRemaining: 'NamespaceFinalizersRemaining',
} as const;
export type NamespaceConditionType = (typeof NamespaceConditionType)[keyof typeof NamespaceConditionType];

/** The order conditions are written in (v1.NamespaceConditionTypes). */
export const namespaceConditionTypes: readonly NamespaceConditionType[] = [
  NamespaceConditionType.DeletionDiscoveryFailure,
  NamespaceConditionType.DeletionGVParsingFailure,
  NamespaceConditionType.DeletionContentFailure,
  NamespaceConditionType.ContentRemaining,
  NamespaceConditionType.FinalizersRemaining,
];

const okMessages: Record<NamespaceConditionType, string> = {
  NamespaceDeletionDiscoveryFailure: 'All resources successfully discovered',
  NamespaceDeletionGroupVersionParsingFailure: 'All legacy kube types successfully parsed',
  NamespaceDeletionContentFailure: 'All content successfully deleted, may be waiting on finalization',
  NamespaceContentRemaining: 'All content successfully removed',
  NamespaceFinalizersRemaining: 'All content-preserving finalizers finished',
};

const okReasons: Record<NamespaceConditionType, string> = {
  NamespaceDeletionDiscoveryFailure: 'ResourcesDiscovered',
  NamespaceDeletionGroupVersionParsingFailure: 'ParsedGroupVersions',
  NamespaceDeletionContentFailure: 'ContentDeleted',
  NamespaceContentRemaining: 'ContentRemoved',
  NamespaceFinalizersRemaining: 'ContentHasNoFinalizers',
};

/** What the content pass left: instances per resource ("pods" + group) and per finalizer. */
export interface ContentTotals {
  /** Keyed by "<resource>.<group>" ("pods." for the core group, as the original prints it). */
  gvrToNumRemaining: Map<string, number>;
  finalizersToNumRemaining: Map<string, number>;
}

export class NamespaceConditionUpdater {
  private readonly newConditions: NamespaceCondition[] = [];
  private readonly deleteContentErrors: string[] = [];

  constructor(private readonly now: string) {}

  processDiscoverResourcesErr(message: string): void {
    this.newConditions.push(this.condition(NamespaceConditionType.DeletionDiscoveryFailure, 'DiscoveryFailed', message));
  }

  processGroupVersionErr(message: string): void {
    this.newConditions.push(this.condition(NamespaceConditionType.DeletionGVParsingFailure, 'GroupVersionParsingFailed', message));
  }

  processDeleteContentErr(message: string): void {
    this.deleteContentErrors.push(message);
  }

  /** ProcessContentTotals: "Some resources are remaining: pods. has 2 resource instances", and the finalizers. */
  processContentTotals(totals: ContentTotals): void {
    const remainingResources = [...totals.gvrToNumRemaining]
      .filter(([, n]) => n !== 0)
      .map(([gr, n]) => `${gr} has ${n} resource instances`)
      .sort();
    if (totals.gvrToNumRemaining.size !== 0) {
      this.newConditions.push(
        this.condition(NamespaceConditionType.ContentRemaining, 'SomeResourcesRemain', `Some resources are remaining: ${remainingResources.join(', ')}`),
      );
    }
    const remainingByFinalizer = [...totals.finalizersToNumRemaining]
      .filter(([, n]) => n !== 0)
      .map(([f, n]) => `${f} in ${n} resource instances`)
      .sort();
    if (totals.finalizersToNumRemaining.size !== 0) {
      this.newConditions.push(
        this.condition(
          NamespaceConditionType.FinalizersRemaining,
          'SomeFinalizersRemain',
          `Some content in the namespace has finalizers remaining: ${remainingByFinalizer.join(', ')}`,
        ),
      );
    }
  }

  /** Update: applies the conditions to ns.status (mutated); returns whether anything changed. */
  update(ns: Namespace): boolean {
    if (!this.newConditions.some((c) => c.type === NamespaceConditionType.DeletionContentFailure) && this.deleteContentErrors.length > 0) {
      const msgs = [...this.deleteContentErrors].sort();
      this.newConditions.push(
        this.condition(
          NamespaceConditionType.DeletionContentFailure,
          'ContentDeletionFailed',
          `Failed to delete all resource types, ${msgs.length} remaining: ${msgs.join(', ')}`,
        ),
      );
    }
    const status = (ns.status ??= {});
    const conditions = (status.conditions ??= []);
    let changed = false;
    for (const type of namespaceConditionTypes) {
      const next = this.newConditions.find((c) => c.type === type) ?? this.condition(type, okReasons[type], okMessages[type], 'False');
      const i = conditions.findIndex((c) => c.type === type);
      if (i < 0) {
        conditions.push(next);
        changed = true;
        continue;
      }
      const old = conditions[i];
      if (old.status !== next.status || old.message !== next.message || old.reason !== next.reason) {
        conditions[i] = { ...old, status: next.status, lastTransitionTime: next.lastTransitionTime, reason: next.reason, message: next.message };
        changed = true;
      }
    }
    return changed;
  }

  private condition(type: NamespaceConditionType, reason: string, message: string, status = 'True'): NamespaceCondition {
    return { type, status, lastTransitionTime: this.now, reason, message };
  }
}
