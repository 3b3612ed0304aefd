import { memo } from 'react';
import type { KubeObject } from '../../../shared/api/types';
import { objectKey } from '../../../shared/protocol/diff';
import { appStore, useAppStore } from '../../state/store';
import type { PodChipState } from './node-model';
import { podChipState } from './node-model';

const podsKey = '/pods';

/** "Pod default/web-1: Running": a chip's accessible name, its pod and what its colour means. */
export function podChipLabel(pod: KubeObject, state: PodChipState = podChipState(pod)): string {
  return `Pod ${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}: ${state}`;
}

/** A stable key for a pod chip (a pod re-created under the same name is another chip). */
export function podChipKey(pod: KubeObject): string {
  return pod.metadata.uid ?? objectKey(pod);
}

/**
 * One pod as a small square coloured by its phase and readiness, a button that opens the pod in the inspector.
 * A new chip pops in (CSS); a `leaving` one is the ghost of a deleted pod, fading out, hidden from assistive tech.
 */
export const PodChip = memo(function PodChip({ pod, leaving = false }: { pod: KubeObject; leaving?: boolean }) {
  const state = podChipState(pod);
  const key = objectKey(pod);
  const selected = useAppStore((s) => s.selected?.resourceKey === podsKey && s.selected.key === key);
  if (leaving) {
    return (
      <li className="pod-chip-slot" data-flip-key={podChipKey(pod)} aria-hidden="true">
        <span className="pod-chip" data-state={state} data-leaving="true" />
      </li>
    );
  }
  const label = podChipLabel(pod, state);
  return (
    <li className="pod-chip-slot" data-flip-key={podChipKey(pod)}>
      <button
        type="button"
        className="pod-chip"
        data-state={state}
        title={label}
        aria-label={label}
        aria-pressed={selected}
        onClick={() => appStore.getState().select({ resourceKey: podsKey, key })}
      />
    </li>
  );
});
