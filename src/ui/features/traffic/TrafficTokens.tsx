// The data plane's requests travelling the Objects graph: one token per 'net.request' trace event, moved by the
// Web Animations API from node to node along its hops (Service → Pod), ending red where it stopped. Drawn in the
// graph's coordinates (inside React Flow's viewport); reduced motion shows it at its end without travelling.
import { memo, useContext, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { ClientContext } from '../../worker-client/context';
import type { Positions } from '../objects/graph-layout';
import { nodeHeight, nodeWidth } from '../objects/graph-layout';
import type { ObjectGraphNode } from '../objects/object-graph';
import { prefersReducedMotion, tokenKeyframes } from '../../lib/token-motion';
import type { NetTrace } from './traffic-trace';
import { netTraces, routeOnGraph } from './traffic-trace';

const hopMs = 700;
const maxLive = 20;
const staggerMs = 150;

interface LiveTrace extends NetTrace {
  until: number;
  /** Requests of one batch (Send 10) leave one after another. */
  delayMs: number;
}

/** The requests of the last few seconds, from the trace channel. */
function useNetTraces(): LiveTrace[] {
  const client = useContext(ClientContext);
  const [live, setLive] = useState<LiveTrace[]>([]);
  useEffect(() => {
    if (!client) return;
    const off = client.onTrace((batch) => {
      const fresh = netTraces(batch.events);
      if (!fresh.length) return;
      const now = performance.now();
      const staggered = fresh.map((t, i) => ({ ...t, delayMs: i * staggerMs, until: now + i * staggerMs + hopMs * (t.hops.length + 2) }));
      setLive((prev) => [...prev.filter((t) => t.until > now), ...staggered].slice(-maxLive));
    });
    return off;
  }, [client]);
  // Finished tokens leave even when no further request comes.
  useEffect(() => {
    if (!live.length) return;
    const next = Math.min(...live.map((t) => t.until)) - performance.now();
    const timer = setTimeout(() => setLive((prev) => prev.filter((t) => t.until > performance.now())), Math.max(0, next) + 16);
    return () => clearTimeout(timer);
  }, [live]);
  return live;
}

export const TrafficTokens = memo(function TrafficTokens({ nodes, positions }: { nodes: readonly ObjectGraphNode[]; positions: Positions }) {
  const traces = useNetTraces();
  return (
    <div className="traffic-tokens" aria-hidden="true">
      {traces.map((t) => {
        const route = routeOnGraph(t, nodes);
        if (!route) return null;
        const points = route.nodeIds.flatMap((id) => {
          const p = positions.get(id);
          return p ? [{ x: p.x + nodeWidth / 2, y: p.y + nodeHeight / 2 }] : [];
        });
        if (points.length === 0) return null;
        // One node only (the request stopped at the Service): come in from the left of it.
        const path = points.length === 1 ? [{ x: points[0].x - nodeWidth, y: points[0].y }, points[0]] : points;
        return <Token key={t.seq} points={path} failed={route.failed} label={route.label} delayMs={t.delayMs} />;
      })}
    </div>
  );
});

function Token({ points, failed, label, delayMs }: { points: { x: number; y: number }[]; failed: boolean; label: string; delayMs: number }) {
  const ref = useRef<HTMLSpanElement>(null);
  // Keyed on where it goes, so a re-render with equal points does not restart the journey.
  const route = points.map((p) => `${p.x},${p.y}`).join(' ');
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || typeof el.animate !== 'function') return;
    const hold = failed ? 0.3 : 0;
    const animation = el.animate(tokenKeyframes(points, failed, prefersReducedMotion(), hold), { duration: hopMs * points.length, delay: delayMs, easing: 'ease-in-out', fill: 'both' });
    return () => animation.cancel();
  }, [route, failed, delayMs]);
  return <span ref={ref} className="traffic-token" data-failed={failed || undefined} title={label} />;
}
