// The Control plane view's own small store: the tokens travelling now (page time), the per-lane overflow counts,
// the controllers' reconcile pulses and the token (or request) whose details are open. Kept apart from the app
// store so a token arriving re-renders the token layer, not the graph.
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import type { PlannedToken, TokenPlan } from './tokens';
import type { FlowDelivery, FlowRequest } from './trace-flow';

export interface LiveToken extends PlannedToken {
  /** Page time (performance.now()) after which it is gone. */
  until: number;
}

export type TokenDetail = { kind: 'request'; request: FlowRequest } | { kind: 'watch'; delivery: FlowDelivery };

export interface TokenState {
  tokens: readonly LiveToken[];
  /** Tokens not drawn because too many travelled at once, per lane, with when the count fades. */
  overflow: Readonly<Record<string, { count: number; until: number }>>;
  /** A counter per controller, bumped when it starts a reconcile (the card restarts its pulse on change). */
  pulses: Readonly<Record<string, number>>;
  /** Controllers seen reconciling (stands in for the list of controllers while the worker cannot describe them). */
  seen: readonly string[];
  /** Trace events the worker summarised into counts recently. */
  dropped: { count: number; until: number };
  detail: TokenDetail | undefined;
}

const overflowShowMs = 2500;

export function createTokenStore() {
  const store = createStore<TokenState>()(() => ({ tokens: [], overflow: {}, pulses: {}, seen: [], dropped: { count: 0, until: 0 }, detail: undefined }));
  return {
    store,
    /** Adds a batch's plan at page time `now`. */
    add(plan: TokenPlan, now: number, dropped = 0): void {
      const s = store.getState();
      const next: Partial<TokenState> = {};
      if (plan.tokens.length) {
        const fresh = plan.tokens.map((t) => ({ ...t, until: now + t.delayMs + t.durationMs + t.holdMs + t.parkMs }));
        next.tokens = [...s.tokens.filter((t) => t.until > now), ...fresh];
      }
      const lanes = Object.entries(plan.overflow);
      if (lanes.length) {
        const overflow = { ...s.overflow };
        for (const [edge, n] of lanes) {
          const prev = overflow[edge];
          overflow[edge] = { count: (prev && prev.until > now ? prev.count : 0) + n, until: now + overflowShowMs };
        }
        next.overflow = overflow;
      }
      const reconciled = Object.keys(plan.reconciles);
      if (reconciled.length) {
        const pulses = { ...s.pulses };
        for (const c of reconciled) pulses[c] = (pulses[c] ?? 0) + 1;
        next.pulses = pulses;
        const fresh = reconciled.filter((c) => !s.seen.includes(c));
        if (fresh.length) next.seen = [...s.seen, ...fresh];
      }
      if (dropped > 0) next.dropped = { count: (s.dropped.until > now ? s.dropped.count : 0) + dropped, until: now + overflowShowMs };
      if (Object.keys(next).length) store.setState(next);
    },
    /** Drops what has finished; cheap when nothing has. */
    prune(now: number): void {
      const s = store.getState();
      const next: Partial<TokenState> = {};
      if (s.tokens.some((t) => t.until <= now)) next.tokens = s.tokens.filter((t) => t.until > now);
      const stale = Object.entries(s.overflow).filter(([, o]) => o.until <= now);
      if (stale.length) {
        const overflow = { ...s.overflow };
        for (const [edge] of stale) delete overflow[edge];
        next.overflow = overflow;
      }
      if (s.dropped.count && s.dropped.until <= now) next.dropped = { count: 0, until: 0 };
      if (Object.keys(next).length) store.setState(next);
    },
    show(detail: TokenDetail | undefined): void {
      store.setState({ detail });
    },
    clear(): void {
      store.setState({ tokens: [], overflow: {}, dropped: { count: 0, until: 0 } });
    },
  };
}

export type TokenStore = ReturnType<typeof createTokenStore>;

/** The view's one token store. */
export const tokenStore: TokenStore = createTokenStore();

export function useTokens<T>(selector: (s: TokenState) => T): T {
  return useStore(tokenStore.store, selector);
}
