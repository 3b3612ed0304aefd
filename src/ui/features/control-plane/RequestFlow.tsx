// The Control plane view: the components as a React Flow graph at fixed places (user → API server stages → etcd
// → watches → controllers, scheduler, kubelets), every request and watch delivery the trace reports travelling
// as a token, the recent requests listed underneath, and the details of a clicked token beside.
import { Controls, ReactFlow, ViewportPortal, useReactFlow, useStore } from '@xyflow/react';
import type { Edge, Node } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import type { RefObject } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { selectEffectiveDark } from '../../state/selectors';
import { appStore, useAppStore } from '../../state/store';
import { useClient } from '../../worker-client/context';
import { controllerNames, kubeletNodes } from './component-selectors';
import type { ControlPlaneLayout } from './flow-layout';
import { apiStages, laneEdges, layoutControlPlane } from './flow-layout';
import type { LaneEdgeData } from './nodes';
import { edgeTypes, nodeTypes } from './nodes';
import { RecentRequests } from './RecentRequests';
import { TokenDetails } from './TokenDetails';
import { TokenLayer } from './TokenLayer';
import { defaultTiming, planTokens } from './tokens';
import { tokenStore, useTokens } from './token-store';
import './control-plane.css';

const fitViewOptions = { padding: 0.03, maxZoom: 1.2 };

function rel(b: { x: number; y: number; w: number; h: number }, origin: { x: number; y: number }) {
  return { x: b.x - origin.x, y: b.y - origin.y, w: b.w, h: b.h };
}

const edgeNames: Record<string, string> = { user: 'the user', kcm: 'kube-controller-manager', scheduler: 'kube-scheduler', apiserver: 'the API server', etcd: 'etcd' };
const nodeName = (id: string) => edgeNames[id] ?? id.replace(/^kubelet:/, 'the kubelet on ');

function toFlow(layout: ControlPlaneLayout, user: string | undefined): { nodes: Node[]; edges: Edge<LaneEdgeData>[] } {
  const box = (b: { x: number; y: number; w: number; h: number }) => ({ position: { x: b.x, y: b.y }, width: b.w, height: b.h, style: { width: b.w, height: b.h } });
  const fixed = { draggable: false, connectable: false, selectable: false, focusable: false } as const;
  const nodes: Node[] = [
    { id: 'bounds', type: 'bounds', data: {}, ...box({ x: 0, y: 0, w: layout.width, h: layout.height }), ...fixed, zIndex: -1 },
    { id: 'user', type: 'user', data: { user }, ...box(layout.user), ...fixed },
    {
      id: 'apiserver',
      type: 'apiserver',
      data: { stages: apiStages.map((s) => ({ ...s, ...rel(layout.stages.get(s.stage)!, layout.apiserver) })) },
      ...box(layout.apiserver),
      ...fixed,
    },
    { id: 'etcd', type: 'etcd', data: {}, ...box(layout.etcd), ...fixed },
    { id: 'kcm', type: 'kcm', data: { cards: [...layout.controllers].map(([name, b]) => ({ name, ...rel(b, layout.kcm) })) }, ...box(layout.kcm), ...fixed },
    { id: 'scheduler', type: 'scheduler', data: {}, ...box(layout.scheduler), ...fixed },
    ...[...layout.kubelets].map(([node, b]) => ({ id: `kubelet:${node}`, type: 'kubelet', data: { node }, ...box(b), ...fixed })),
  ];
  const edges: Edge<LaneEdgeData>[] = laneEdges(layout).map((e) => ({
    id: e.id,
    source: e.source,
    target: e.target,
    type: 'lane',
    data: { points: e.points, kind: e.kind },
    selectable: false,
    focusable: false,
    ariaLabel: e.kind === 'request' ? `Requests from ${nodeName(e.source)} to ${nodeName(e.target)}` : `Watch events from etcd to ${nodeName(e.target)}`,
  }));
  return { nodes, edges };
}

/** Re-fits the viewport when the set of components changes, not on every poll. */
function FitOnChange({ structure }: { structure: string }) {
  const { fitView } = useReactFlow();
  useEffect(() => {
    void fitView(fitViewOptions);
  }, [structure, fitView]);
  return null;
}

/** Zoomed far out (the usual case at 1280×720), the nodes drop their small print and enlarge the rest. */
function ZoomClass({ target }: { target: RefObject<HTMLDivElement | null> }) {
  const far = useStore((s) => s.transform[2] < 0.6);
  useEffect(() => {
    if (target.current) target.current.dataset.far = String(far);
  }, [far, target]);
  return null;
}

/** Turns each trace batch into tokens while the view is shown; prunes finished ones. */
function useTokenFeed(layout: ControlPlaneLayout) {
  const layoutRef = useRef(layout);
  layoutRef.current = layout;
  useEffect(() => {
    const unsubscribe = appStore.subscribe((s, prev) => {
      if (s.flow === prev.flow) return;
      const now = performance.now();
      const alive = tokenStore.store.getState().tokens.filter((t) => t.until > now).length;
      tokenStore.add(planTokens(s.flow, layoutRef.current, { ...defaultTiming, alive }), now, s.flow.dropped);
    });
    const timer = setInterval(() => tokenStore.prune(performance.now()), 400);
    return () => {
      unsubscribe();
      clearInterval(timer);
      // Tokens restart their animation when drawn again: drop them rather than replay them later.
      tokenStore.clear();
    };
  }, []);
}

function useActingUser(): string | undefined {
  const client = useClient();
  const [user, setUser] = useState<string | undefined>(undefined);
  useEffect(() => {
    let live = true;
    client
      .call('cluster/info')
      .then((info) => live && setUser(info.user.username))
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [client]);
  return user;
}

function GraphNotes() {
  const error = useAppStore((s) => s.componentsError);
  const dropped = useTokens((s) => s.dropped.count);
  if (!error && !dropped) return null;
  return (
    <div className="cp-notes">
      {error && <p>Component details unavailable ({error}); tokens still come from the trace.</p>}
      {dropped > 0 && <p>+{dropped} trace events summarised (too many for one frame)</p>}
    </div>
  );
}

const ControlPlaneGraph = memo(function ControlPlaneGraph() {
  const dark = useAppStore(selectEffectiveDark);
  const seen = useTokens((s) => s.seen);
  const controllers = useAppStore(useShallow((s) => controllerNames(s, seen)));
  const kubelets = useAppStore(useShallow(kubeletNodes));
  const user = useActingUser();
  const layout = useMemo(() => layoutControlPlane(controllers, kubelets), [controllers, kubelets]);
  const { nodes, edges } = useMemo(() => toFlow(layout, user), [layout, user]);
  useTokenFeed(layout);
  const container = useRef<HTMLDivElement>(null);
  return (
    <div ref={container} className="cp-graph" role="region" aria-label="Control plane graph">
      <ReactFlow
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        edgeTypes={edgeTypes}
        panActivationKeyCode={null}
        deleteKeyCode={null}
        nodesConnectable={false}
        nodesDraggable={false}
        nodesFocusable={false}
        edgesFocusable={false}
        elementsSelectable={false}
        colorMode={dark ? 'dark' : 'light'}
        fitView
        fitViewOptions={fitViewOptions}
        minZoom={0.2}
        proOptions={{ hideAttribution: true }}
      >
        <FitOnChange structure={`${controllers.join()}|${kubelets.join()}`} />
        <ZoomClass target={container} />
        <ViewportPortal>
          <TokenLayer />
        </ViewportPortal>
        <Controls showInteractive={false} />
      </ReactFlow>
      <GraphNotes />
      <TokenDetails />
    </div>
  );
});

export function RequestFlow() {
  return (
    <section className="cp-view" aria-label="Control plane">
      <ControlPlaneGraph />
      <RecentRequests />
    </section>
  );
}
