// A live list of pod chips: new pods pop in, deleted ones fade out where they were (ghosts for a moment), and the
// others glide to their new places (FLIP), so a pod replaced on another node is seen to go and to come.
import { memo, useMemo, useRef } from 'react';
import type { KubeObject } from '../../../shared/api/types';
import { usePresence } from '../objects/use-presence';
import { PodChip, podChipKey } from './PodChip';
import { useFlip } from './use-flip';

function byName(a: KubeObject, b: KubeObject): number {
  const an = `${a.metadata.namespace ?? ''}/${a.metadata.name ?? ''}`;
  const bn = `${b.metadata.namespace ?? ''}/${b.metadata.name ?? ''}`;
  return an < bn ? -1 : an > bn ? 1 : 0;
}

export const PodChipList = memo(function PodChipList({ pods, label }: { pods: readonly KubeObject[]; label: string }) {
  const presence = usePresence(pods, podChipKey);
  const entries = useMemo(() => [...presence.values()].sort((a, b) => byName(a.item, b.item)), [presence]);
  const ref = useRef<HTMLUListElement>(null);
  useFlip(ref);
  return (
    <ul className="pod-chips" aria-label={label} ref={ref}>
      {entries.map((p) => (
        <PodChip key={p.key} pod={p.item} leaving={p.leavingSince !== undefined} />
      ))}
    </ul>
  );
});
