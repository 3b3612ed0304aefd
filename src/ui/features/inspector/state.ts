// The inspector's own UI state, kept outside its components so it survives a change of selection: which section
// is open, and the output of the last Edit/Delete (shown even after the object is gone).
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';

export const InspectorTab = {
  Summary: 'summary',
  Yaml: 'yaml',
  Events: 'events',
  Relations: 'relations',
  Scheduling: 'scheduling',
  Why: 'why',
} as const;
export type InspectorTab = (typeof InspectorTab)[keyof typeof InspectorTab];

export interface OutputLine {
  ok: boolean;
  text: string;
}

interface InspectorUiState {
  tab: InspectorTab;
  /** "resourceKey|key" of the object the output is about. */
  outputFor: string | undefined;
  output: OutputLine[];
  setTab(tab: InspectorTab): void;
  report(target: string, lines: OutputLine[]): void;
}

export const inspectorUi = createStore<InspectorUiState>()((set) => ({
  tab: InspectorTab.Summary,
  outputFor: undefined,
  output: [],
  setTab: (tab) => set({ tab }),
  report: (outputFor, output) => set({ outputFor, output }),
}));

export function useInspectorUi<T>(selector: (state: InspectorUiState) => T): T {
  return useStore(inspectorUi, selector);
}
