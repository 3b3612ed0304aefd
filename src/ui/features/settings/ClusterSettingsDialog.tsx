// The Cluster settings dialog: one number input per demo-timing setting with its real default beside it, the
// Demo timings and Restore defaults presets (they fill the form; Apply sends it), errors inline. The worker
// validates and applies (cluster/configure); nothing here changes the cluster by itself. Below the form, the
// playground limits with the current usage (cluster/limits).
import { useEffect, useId, useRef, useState } from 'react';
import type { ClusterSettingView, ClusterSettingsView } from '../../../shared/protocol/introspection';
import { useClient } from '../../worker-client/context';
import {
  defaultHint,
  defaultsOf,
  demoTimings,
  errorsFromStatus,
  isDirty,
  parseForm,
  presetValues,
  settingLabels,
  valuesOf,
  type FormErrors,
  type FormValues,
  type SettingKey,
} from './settings-form';
import { PlaygroundLimitsSection } from './PlaygroundLimitsSection';
import './settings.css';

export interface SettingsFormProps {
  view: ClusterSettingsView;
  values: FormValues;
  errors: FormErrors;
  /** An error that names no input (or the call failed). */
  error?: string;
  notice?: string;
  busy?: boolean;
  onChange(key: SettingKey, text: string): void;
  onDemo(): void;
  onDefaults(): void;
  onApply(): void;
  onClose(): void;
}

function SettingField({ setting, value, error, onChange }: { setting: ClusterSettingView; value: string; error?: string; onChange(text: string): void }) {
  const id = `setting-${setting.key}`;
  const describedBy = [`${id}-default`, `${id}-description`, error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className="setting-field">
      <label htmlFor={id}>
        {settingLabels[setting.key]} <span className="muted">(seconds)</span>
      </label>
      <input
        id={id}
        type="number"
        inputMode="decimal"
        min={setting.min}
        max={setting.max}
        step={setting.key === 'defaultTolerationSeconds' ? 1 : 'any'}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        onChange={(e) => onChange(e.target.value)}
      />
      <p id={`${id}-default`} className="setting-default">
        <span className={setting.kubernetesDefault ? 'setting-badge setting-badge-k8s' : 'setting-badge setting-badge-sim'}>{defaultHint(setting)}</span>{' '}
        <code className="setting-flag">{setting.flag}</code>
      </p>
      <p id={`${id}-description`} className="setting-description muted">
        {setting.description}
      </p>
      {error && (
        <p id={`${id}-error`} className="setting-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/** The form inside the dialog, stateless (rendered by tests without a worker). */
export function SettingsForm(props: SettingsFormProps) {
  const { view, values, errors } = props;
  return (
    <form
      className="settings-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        props.onApply();
      }}
    >
      <p className="muted settings-intro">
        Timings of the simulated cluster. Shorten them for a demo; the real defaults are marked. Changes apply at once to the running
        components and are saved with the cluster.
      </p>
      {view.settings.map((s) => (
        <SettingField key={s.key} setting={s} value={values[s.key] ?? ''} error={errors[s.key]} onChange={(text) => props.onChange(s.key, text)} />
      ))}
      {props.error && (
        <p className="setting-error" role="alert">
          {props.error}
        </p>
      )}
      <p className="settings-notice" role="status" aria-live="polite">
        {props.notice ?? ''}
      </p>
      <div className="settings-actions">
        <div className="settings-presets">
          <button type="button" className="secondary" onClick={props.onDemo}>
            Demo timings
          </button>
          <button type="button" className="secondary" onClick={props.onDefaults}>
            Restore defaults
          </button>
          <span className="muted settings-preset-note">Demo timings: grace 10 s, toleration 30 s (new pods only), pull 1 s, status 5 s.</span>
        </div>
        <div className="settings-buttons">
          <button type="submit" disabled={props.busy}>
            Apply settings
          </button>
          <button type="button" className="secondary" onClick={props.onClose}>
            Close
          </button>
        </div>
      </div>
    </form>
  );
}

/** The modal dialog; mounted while open, it reads the settings when it opens. */
export function ClusterSettingsDialog({ onClose }: { onClose(): void }) {
  const client = useClient();
  const titleId = useId();
  const ref = useRef<HTMLDialogElement>(null);
  const [view, setView] = useState<ClusterSettingsView>();
  const [values, setValues] = useState<FormValues>();
  const [errors, setErrors] = useState<FormErrors>({});
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);

  useEffect(() => {
    let live = true;
    client
      .call('cluster/settings')
      .then((v) => {
        if (!live) return;
        setView(v);
        setValues(valuesOf(v));
      })
      .catch((err: unknown) => live && setError(errorsFromStatus(statusOf(err)).other));
    return () => {
      live = false;
    };
  }, [client]);

  const fill = (next: FormValues, message: string) => {
    setValues(next);
    setErrors({});
    setError(undefined);
    setNotice(message);
  };

  const apply = async () => {
    if (!values) return;
    const parsed = parseForm(values);
    if ('errors' in parsed) {
      setErrors(parsed.errors);
      setNotice(undefined);
      return;
    }
    setBusy(true);
    try {
      const next = await client.call('cluster/configure', parsed.params);
      setView(next);
      setValues(valuesOf(next));
      setErrors({});
      setError(undefined);
      setNotice('Settings applied.');
    } catch (err) {
      const mapped = errorsFromStatus(statusOf(err));
      setErrors(mapped.fields);
      setError(mapped.other);
      setNotice(undefined);
    } finally {
      setBusy(false);
    }
  };

  const close = () => {
    ref.current?.close();
    onClose();
  };

  return (
    <dialog
      ref={ref}
      className="settings-dialog"
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        close();
      }}
    >
      <h2 id={titleId}>Cluster settings</h2>
      {view && values ? (
        <SettingsForm
          view={view}
          values={values}
          errors={errors}
          error={error}
          notice={notice ?? (isDirty(values, view) ? 'Not applied yet.' : undefined)}
          busy={busy}
          onChange={(key, text) => {
            setValues({ ...values, [key]: text });
            setNotice(undefined);
          }}
          onDemo={() => fill(presetValues(demoTimings), 'Demo timings filled in: press Apply settings.')}
          onDefaults={() => fill(defaultsOf(view), 'Defaults filled in: press Apply settings.')}
          onApply={() => void apply()}
          onClose={close}
        />
      ) : error ? (
        <>
          <p className="setting-error" role="alert">
            {error}
          </p>
          <button type="button" className="secondary" onClick={close}>
            Close
          </button>
        </>
      ) : (
        <p className="muted">Loading…</p>
      )}
      <PlaygroundLimitsSection />
    </dialog>
  );
}

function statusOf(err: unknown): { message?: string; details?: { causes?: { field?: string; message?: string }[] } } {
  const status = (err as { status?: unknown } | undefined)?.status;
  if (status && typeof status === 'object') return status as { message?: string };
  return { message: err instanceof Error ? err.message : String(err) };
}

/** The top bar's button and the dialog it opens. */
export function ClusterSettingsButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" aria-haspopup="dialog" aria-expanded={open} onClick={() => setOpen(true)}>
        Cluster settings
      </button>
      {open && <ClusterSettingsDialog onClose={() => setOpen(false)} />}
    </>
  );
}
