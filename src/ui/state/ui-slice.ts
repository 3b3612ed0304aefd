// Page chrome the user chooses: theme, presentation mode (both kept across reloads), the canvas view and the
// selected object.
import type { StateCreator } from 'zustand';
import type { AppState } from './store';

export const Theme = { System: 'system', Light: 'light', Dark: 'dark' } as const;
export type Theme = (typeof Theme)[keyof typeof Theme];

export const CanvasView = { ControlPlane: 'control-plane', Objects: 'objects', Nodes: 'nodes' } as const;
export type CanvasView = (typeof CanvasView)[keyof typeof CanvasView];

/** An object by its place in the objects slice: resources[resourceKey].objects.get(key). */
export interface ObjectSelection {
  resourceKey: string;
  key: string;
}

export interface UiSlice {
  theme: Theme;
  presentation: boolean;
  view: CanvasView;
  selected: ObjectSelection | undefined;
  setTheme(theme: Theme): void;
  setPresentation(on: boolean): void;
  setView(view: CanvasView): void;
  select(selection: ObjectSelection | undefined): void;
}

const themeKey = 'kubeplay.ui.theme';
const presentationKey = 'kubeplay.ui.presentation';

function stored(key: string): string | undefined {
  try {
    return globalThis.localStorage?.getItem(key) ?? undefined;
  } catch {
    return undefined;
  }
}

function store(key: string, value: string): void {
  try {
    globalThis.localStorage?.setItem(key, value);
  } catch {
    // Storage disabled: the choice lasts for this page only.
  }
}

function storedTheme(): Theme {
  const t = stored(themeKey);
  return t === Theme.Light || t === Theme.Dark ? t : Theme.System;
}

export const createUiSlice: StateCreator<AppState, [], [], UiSlice> = (set) => ({
  theme: storedTheme(),
  presentation: stored(presentationKey) === 'true',
  view: CanvasView.Objects,
  selected: undefined,
  setTheme(theme) {
    store(themeKey, theme);
    set({ theme });
  },
  setPresentation(presentation) {
    store(presentationKey, String(presentation));
    set({ presentation });
  },
  setView(view) {
    set({ view });
  },
  select(selected) {
    set({ selected });
  },
});
