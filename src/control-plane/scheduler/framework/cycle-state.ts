// framework.CycleState: per-attempt scratch space plugins share between their extension points (PreFilter
// computes, Filter reads). Cloned for preemption's dry runs so they can change it without touching the cycle's.

export class CycleState {
  private readonly data = new Map<string, unknown>();
  /** Plugins whose PreFilter returned Skip: their Filter is not run. */
  readonly skipFilterPlugins = new Set<string>();
  /** Plugins whose PreScore returned Skip: their Score is not run. */
  readonly skipScorePlugins = new Set<string>();
  /** The Filter plugins to run for this pod (the framework fills it after PreFilter). */
  activeFilters?: unknown[];

  read<T>(key: string): T | undefined {
    return this.data.get(key) as T | undefined;
  }

  write(key: string, value: unknown): void {
    this.data.set(key, value);
  }

  delete(key: string): void {
    this.data.delete(key);
  }

  /** A shallow copy: plugins that mutate their state in AddPod/RemovePod store fresh objects there. */
  clone(): CycleState {
    const c = new CycleState();
    for (const [k, v] of this.data) c.data.set(k, v);
    for (const p of this.skipFilterPlugins) c.skipFilterPlugins.add(p);
    for (const p of this.skipScorePlugins) c.skipScorePlugins.add(p);
    c.activeFilters = this.activeFilters;
    return c;
  }
}
