import { memo } from 'react';

interface Props {
  label: string;
  node: string;
  requested: number;
  allocatable: number;
  format(value: number): string;
}

/** Requested vs allocatable as a bar with both numbers; over 100% (possible after a resize) is shown as full. */
export const ResourceBar = memo(function ResourceBar({ label, node, requested, allocatable, format }: Props) {
  const percent = allocatable > 0 ? Math.round((requested / allocatable) * 100) : 0;
  return (
    <div className="resource-bar">
      <span className="resource-name">{label}</span>
      <div
        className="resource-track"
        role="meter"
        aria-label={`${label} requested on ${node}`}
        aria-valuemin={0}
        aria-valuemax={allocatable}
        aria-valuenow={requested}
        aria-valuetext={`${format(requested)} of ${format(allocatable)} (${percent}%)`}
      >
        <span className="resource-fill" data-high={percent >= 90 ? 'true' : undefined} style={{ width: `${Math.min(percent, 100)}%` }} />
      </div>
      <span className="resource-numbers">
        {format(requested)} / {format(allocatable)}
      </span>
    </div>
  );
});
