// A drag handle between two panels: pointer drag or arrow keys change the size its owner keeps.
import { useRef } from 'react';
import type { KeyboardEvent, PointerEvent } from 'react';

export interface SplitterProps {
  label: string;
  /** 'vertical': a vertical bar resizing widths; 'horizontal': a horizontal bar resizing heights. */
  orientation: 'vertical' | 'horizontal';
  value: number;
  min: number;
  max: number;
  /** +1 when dragging right/down grows the panel, -1 when it shrinks it. */
  direction: 1 | -1;
  onChange(value: number): void;
}

const clamp = (v: number, min: number, max: number) => Math.min(max, Math.max(min, v));

export function Splitter({ label, orientation, value, min, max, direction, onChange }: SplitterProps) {
  const start = useRef<{ pos: number; value: number } | undefined>(undefined);
  const axis = (e: PointerEvent) => (orientation === 'vertical' ? e.clientX : e.clientY);

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    e.currentTarget.setPointerCapture(e.pointerId);
    start.current = { pos: axis(e), value };
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (!start.current) return;
    onChange(clamp(start.current.value + direction * (axis(e) - start.current.pos), min, max));
  };
  const onPointerUp = () => {
    start.current = undefined;
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const grow: Record<string, number> = orientation === 'vertical' ? { ArrowRight: 1, ArrowLeft: -1 } : { ArrowDown: 1, ArrowUp: -1 };
    const step = grow[e.key];
    if (step === undefined) return;
    e.preventDefault();
    onChange(clamp(value + direction * step * 24, min, max));
  };

  return (
    <div
      role="separator"
      aria-label={label}
      aria-orientation={orientation}
      aria-valuenow={Math.round(value)}
      aria-valuemin={min}
      aria-valuemax={max}
      tabIndex={0}
      className={`splitter splitter-${orientation}`}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onKeyDown={onKeyDown}
    />
  );
}
