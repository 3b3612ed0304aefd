import { memo } from 'react';
import type { KubeObject } from '../../../shared/api/types';
import { podChipState } from './node-model';

/** One pod as a small square coloured by its state; its name and state are its accessible name. */
export const PodChip = memo(function PodChip({ pod }: { pod: KubeObject }) {
  const state = podChipState(pod);
  const label = `Pod ${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}: ${state}`;
  return <li className="pod-chip" data-state={state} title={label} aria-label={label} />;
});
