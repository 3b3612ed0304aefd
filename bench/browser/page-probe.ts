// Injected into the page before its own scripts (page.addInitScript): wraps Worker so the benchmark sees the
// cluster worker's messages (nodes Ready, ConfigMaps delivered, bytes per frame) and can send protocol calls of
// its own beside the page's client (ids far above the page's, whose replies the page ignores). Also records
// frames (requestAnimationFrame), long tasks and long animation frames while `recording` is on.
// Self-contained: it is serialised into the page, so it may use nothing from outside its body.

export interface ProbeOptions {
  /** JSON length of every worker message, summed per animation frame (costs main-thread time itself). */
  countBytes: boolean;
  /** Prefix of the ConfigMap names to count as they are delivered (benchmark 4's reload). */
  configMapPrefix: string;
  /** Prefix of the pod names to count Ready as they reach the page (benchmark 5's rollout). */
  rolloutPodPrefix?: string;
  /** Record long tasks and frames from navigation on (benchmark 4's reload), not only once told to. */
  recordLoad?: boolean;
}

export interface ProbeFrame {
  t: number;
  bytes: number;
  messages: number;
}

export interface ProbeState {
  readyNodes: string[];
  /** performance.now() (ms since navigation) when the third node was delivered Ready. */
  nodesReadyAt?: number;
  /** … when the Apply button was enabled and Monaco's textbox present. */
  editorUsableAt?: number;
  configMaps: number;
  configMapsAt?: number;
  /** performance.now() when the cluster worker said ready (its state restored and its cluster started). */
  workerReadyAt?: number;
  /** … when the first ConfigMap with configMapPrefix arrived, and in how many watch batches they came. */
  firstConfigMapAt?: number;
  configMapBatches: number;
  /** Pods named with rolloutPodPrefix the page has been sent Ready (counted even while scanning is off). */
  rolloutPodsReady: number;
  frames: ProbeFrame[];
  longTasks: { start: number; duration: number }[];
  longFrames: { start: number; duration: number; blocking: number; scriptMs: number; scripts: string[] }[];
  recording: boolean;
  /** Frames over 100 KB (first 5), with bytes per message type ("watch/batch Pod", "trace/batch", …). */
  bigFrames: { bytes: number; byType: Record<string, number> }[];
}

export function installProbe(options: ProbeOptions): void {
  const w = window as unknown as Record<string, unknown>;
  const state: ProbeState = { readyNodes: [], configMaps: 0, configMapBatches: 0, rolloutPodsReady: 0, frames: [], longTasks: [], longFrames: [], recording: options.recordLoad === true, bigFrames: [] };
  let batchHasConfigMap = false;
  let byType: Record<string, number> = {};
  const readyNodes = new Set<string>();
  const configMaps = new Set<string>();
  const rolloutPodsReady = new Set<string>();
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: unknown): void }>();
  let worker: Worker | undefined;
  let markReady!: () => void;
  const ready = new Promise<void>((r) => (markReady = r));
  let nextId = 1_000_000_000;
  let bytes = 0;
  let messages = 0;
  let scanObjects = true;

  type Obj = { kind?: string; metadata?: { name?: string; namespace?: string }; status?: { conditions?: { type: string; status: string }[] } };
  const see = (o: Obj) => {
    if (o.kind === 'Node') {
      const isReady = o.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');
      if (isReady && o.metadata?.name) readyNodes.add(o.metadata.name);
      if (readyNodes.size >= 3 && state.nodesReadyAt === undefined) state.nodesReadyAt = performance.now();
      state.readyNodes = [...readyNodes];
    } else if (o.kind === 'ConfigMap' && o.metadata?.name?.startsWith(options.configMapPrefix)) {
      state.firstConfigMapAt ??= performance.now();
      batchHasConfigMap = true;
      configMaps.add(`${o.metadata.namespace}/${o.metadata.name}`);
      state.configMaps = configMaps.size;
    }
  };

  const onMessage = (event: MessageEvent) => {
    const msg = event.data as { type: string; id?: number; ok?: boolean; result?: unknown; status?: { message: string }; batch?: { diff: Record<string, Record<string, Obj>> } };
    if (options.countBytes) {
      const n = JSON.stringify(msg).length;
      bytes += n;
      messages++;
      const first = msg.type === 'watch/batch' && msg.batch ? Object.values(msg.batch.diff.added ?? {})[0] ?? Object.values(msg.batch.diff.updated ?? {})[0] ?? Object.values(msg.batch.diff.removed ?? {})[0] : undefined;
      const key = first ? `${msg.type} ${first.kind}` : msg.type;
      byType[key] = (byType[key] ?? 0) + n;
    }
    if (msg.type === 'ready') {
      state.workerReadyAt ??= performance.now();
      markReady();
    }
    else if (msg.type === 'reply' && typeof msg.id === 'number' && pending.has(msg.id)) {
      const p = pending.get(msg.id)!;
      pending.delete(msg.id);
      if (msg.ok) p.resolve(msg.result);
      else p.reject(new Error(msg.status?.message ?? 'call failed'));
    } else if (msg.type === 'watch/batch' && msg.batch) {
      batchHasConfigMap = false;
      for (const part of ['added', 'updated'] as const) {
        for (const o of Object.values(msg.batch.diff[part] ?? {})) {
          if (scanObjects) see(o);
          else if (options.rolloutPodPrefix && o.kind === 'Pod' && o.metadata?.name?.startsWith(options.rolloutPodPrefix)) {
            if (o.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')) rolloutPodsReady.add(o.metadata.name);
            state.rolloutPodsReady = rolloutPodsReady.size;
          }
        }
      }
      if (batchHasConfigMap) state.configMapBatches++;
    }
  };

  const Original = window.Worker;
  window.Worker = class extends Original {
    constructor(url: string | URL, opts?: WorkerOptions) {
      super(url, opts);
      if (opts?.name === 'kubeplay-cluster') {
        worker = this;
        this.addEventListener('message', onMessage);
      }
    }
  } as typeof Worker;

  const checkEditor = () => {
    if (state.editorUsableAt !== undefined) return;
    const apply = [...document.querySelectorAll('button')].find((b) => b.textContent?.trim() === 'Apply');
    const textbox = document.querySelector('[aria-label^="Manifest editor"]');
    if (apply && !apply.disabled && textbox) state.editorUsableAt = performance.now();
  };
  let last = performance.now();
  const frame = (t: number) => {
    checkEditor();
    if (state.recording) {
      state.frames.push({ t: t - last, bytes, messages });
      if (bytes > 100_000 && state.bigFrames.length < 5) state.bigFrames.push({ bytes, byType });
    }
    byType = {};
    bytes = 0;
    messages = 0;
    last = t;
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);

  new PerformanceObserver((list) => {
    if (!state.recording) return;
    for (const e of list.getEntries()) state.longTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: false });
  if (PerformanceObserver.supportedEntryTypes.includes('long-animation-frame')) {
    new PerformanceObserver((list) => {
      if (!state.recording) return;
      for (const e of list.getEntries() as (PerformanceEntry & { blockingDuration: number; scripts: { duration: number; invoker: string; sourceFunctionName: string }[] })[]) {
        state.longFrames.push({
          start: e.startTime,
          duration: e.duration,
          blocking: e.blockingDuration,
          scriptMs: e.scripts.reduce((s, x) => s + x.duration, 0),
          scripts: e.scripts.map((x) => `${x.invoker}${x.sourceFunctionName ? ` ${x.sourceFunctionName}` : ''} ${Math.round(x.duration)}ms`),
        });
      }
    }).observe({ type: 'long-animation-frame', buffered: false });
  }

  w.__benchProbe = {
    state,
    setScan(on: boolean) {
      scanObjects = on;
    },
    async call(method: string, params?: unknown): Promise<unknown> {
      await ready;
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker!.postMessage({ type: 'call', id, method, params });
      });
    },
  };
}
