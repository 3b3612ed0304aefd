// What the Objects tab remembers while the user switches tabs: graph or table, the namespace shown, which pod
// groups are expanded, and a layout generation that "Tidy layout" bumps to ask for a fresh layout.
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';

export const ObjectsMode = { Graph: 'graph', Table: 'table' } as const;
export type ObjectsMode = (typeof ObjectsMode)[keyof typeof ObjectsMode];

export interface ObjectsViewState {
  mode: ObjectsMode;
  namespace: string;
  expanded: ReadonlySet<string>;
  layoutGeneration: number;
  setMode(mode: ObjectsMode): void;
  setNamespace(namespace: string): void;
  toggleExpanded(ownerId: string): void;
  tidyLayout(): void;
}

export const objectsViewStore = createStore<ObjectsViewState>()((set) => ({
  mode: ObjectsMode.Graph,
  namespace: 'default',
  expanded: new Set(),
  layoutGeneration: 0,
  setMode: (mode) => set({ mode }),
  setNamespace: (namespace) => set({ namespace }),
  toggleExpanded: (ownerId) =>
    set((s) => {
      const expanded = new Set(s.expanded);
      if (!expanded.delete(ownerId)) expanded.add(ownerId);
      return { expanded };
    }),
  tidyLayout: () => set((s) => ({ layoutGeneration: s.layoutGeneration + 1 })),
}));

export function useObjectsView<T>(selector: (state: ObjectsViewState) => T): T {
  return useStore(objectsViewStore, selector);
}
