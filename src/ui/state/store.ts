// The page's one zustand store, made of slices. Components read it through module-level selectors
// (selectors.ts) with useAppStore; code outside React uses appStore.getState().
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import type { ComponentsSlice } from './components-slice';
import { createComponentsSlice } from './components-slice';
import type { EditorSlice } from './editor-slice';
import { createEditorSlice } from './editor-slice';
import type { FeedbackSlice } from './feedback-slice';
import { createFeedbackSlice } from './feedback-slice';
import type { ObjectsSlice } from './objects-slice';
import { createObjectsSlice } from './objects-slice';
import type { SimSlice } from './sim-slice';
import { createSimSlice } from './sim-slice';
import type { TraceSlice } from './trace-slice';
import { createTraceSlice } from './trace-slice';
import type { UiSlice } from './ui-slice';
import { createUiSlice } from './ui-slice';

export type AppState = ObjectsSlice & SimSlice & FeedbackSlice & UiSlice & TraceSlice & EditorSlice & ComponentsSlice;

export function createAppStore() {
  return createStore<AppState>()((...a) => ({
    ...createObjectsSlice(...a),
    ...createSimSlice(...a),
    ...createFeedbackSlice(...a),
    ...createUiSlice(...a),
    ...createTraceSlice(...a),
    ...createEditorSlice(...a),
    ...createComponentsSlice(...a),
  }));
}

export type AppStore = ReturnType<typeof createAppStore>;

export const appStore: AppStore = createAppStore();

export function useAppStore<T>(selector: (state: AppState) => T): T {
  return useStore(appStore, selector);
}
