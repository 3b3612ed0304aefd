// The Cluster settings dialog's form, without React: the inputs as text, the presets, the parse into a
// cluster/configure request, and the worker's 400 causes mapped back onto the inputs. Bounds and messages come
// from the worker (the settings model validates); the form only refuses what is not a number at all.
import type { ClusterSettingView, ClusterSettings, ClusterSettingsView } from '../../../shared/protocol/introspection';

export type SettingKey = keyof ClusterSettings;
export type FormValues = Record<SettingKey, string>;
export type FormErrors = Partial<Record<SettingKey, string>>;

/** Label of each input (its accessible name adds the unit). */
export const settingLabels: Record<SettingKey, string> = {
  nodeMonitorGracePeriodSeconds: 'Node monitor grace period',
  defaultTolerationSeconds: 'Default toleration seconds',
  imagePullSeconds: 'Image pull time',
  nodeStatusUpdateFrequencySeconds: 'Node status update frequency',
};

/**
 * Short enough that a killed node is NotReady in ~10 s and its pods are replaced ~30 s later; the status
 * frequency keeps the heartbeat well inside the grace period. The toleration reaches new pods only.
 */
export const demoTimings: Readonly<ClusterSettings> = {
  nodeMonitorGracePeriodSeconds: 10,
  defaultTolerationSeconds: 30,
  imagePullSeconds: 1,
  nodeStatusUpdateFrequencySeconds: 5,
};

export function valuesOf(view: ClusterSettingsView): FormValues {
  return Object.fromEntries(view.settings.map((s) => [s.key, String(s.value)])) as FormValues;
}

export function defaultsOf(view: ClusterSettingsView): FormValues {
  return Object.fromEntries(view.settings.map((s) => [s.key, String(s.defaultValue)])) as FormValues;
}

export function presetValues(settings: Readonly<ClusterSettings>): FormValues {
  return Object.fromEntries(Object.entries(settings).map(([k, v]) => [k, String(v)])) as FormValues;
}

/** "Kubernetes default: 40 s", or the simulator's default for a setting Kubernetes does not have. */
export function defaultHint(setting: ClusterSettingView): string {
  const who = setting.kubernetesDefault ? 'Kubernetes default' : 'Simulator default';
  const note = setting.key === 'imagePullSeconds' && setting.defaultValue === 0 ? ' (by image size)' : '';
  return `${who}: ${setting.defaultValue} s${note}`;
}

/** The request for cluster/configure, or the inputs that are not numbers. */
export function parseForm(values: FormValues): { params: Partial<ClusterSettings> } | { errors: FormErrors } {
  const params: Partial<ClusterSettings> = {};
  const errors: FormErrors = {};
  for (const [key, text] of Object.entries(values) as [SettingKey, string][]) {
    const trimmed = text.trim();
    const n = Number(trimmed);
    if (trimmed === '') errors[key] = 'Required value: a number of seconds';
    else if (!Number.isFinite(n)) errors[key] = `Invalid value: ${JSON.stringify(trimmed)}: must be a number of seconds`;
    else params[key] = n;
  }
  return Object.keys(errors).length ? { errors } : { params };
}

/** The worker's field causes (one per wrong setting) as inline errors; what names no input goes to `other`. */
export function errorsFromStatus(status: { message?: string; details?: { causes?: { field?: string; message?: string }[] } } | undefined): {
  fields: FormErrors;
  other?: string;
} {
  const fields: FormErrors = {};
  const rest: string[] = [];
  for (const cause of status?.details?.causes ?? []) {
    if (cause.field && cause.field in settingLabels) fields[cause.field as SettingKey] = cause.message ?? '';
    else if (cause.message) rest.push(cause.field ? `${cause.field}: ${cause.message}` : cause.message);
  }
  if (Object.keys(fields).length === 0 && rest.length === 0) return { fields, other: status?.message ?? 'the settings could not be applied' };
  return rest.length ? { fields, other: rest.join('; ') } : { fields };
}

/** Whether the form differs from what the cluster runs with. */
export function isDirty(values: FormValues, view: ClusterSettingsView | undefined): boolean {
  if (!view) return false;
  return view.settings.some((s) => Number(values[s.key]) !== s.value || values[s.key].trim() === '');
}
