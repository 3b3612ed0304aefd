// The inspector's "Load" control for a workload: the CPU its simulated traffic demands, shared by its ready
// pods. Setting it goes to the worker ('sim/load'); the metrics-server's next scrape (≤ 15 s of virtual time)
// shows it in kubectl top and to the HPA.
import { useEffect, useId, useState } from 'react';
import type { KubeObject } from '../../../shared/api/types';
import { useClient } from '../../worker-client/context';
import { statusOf } from '../inspector/edit';
import { useWorkerCall } from '../inspector/use-worker-call';
import { currentLoad, loadTarget, maxMillicores, parseMillicores, sliderMaxMillicores, sliderStepMillicores } from './load-control';
import './load.css';

export function LoadControl({ obj }: { obj: KubeObject }) {
  const target = loadTarget(obj);
  const client = useClient();
  const id = useId();
  const version = target ? `${target.kind}/${target.namespace}/${target.name}` : '';
  const loads = useWorkerCall('sim/loads', undefined, version);
  const applied = target ? currentLoad(loads.result, target) : 0;
  const [text, setText] = useState(String(applied));
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  useEffect(() => setText(String(applied)), [applied]);
  if (!target) return null;

  const send = (value: number) => {
    setBusy(true);
    setError(undefined);
    setText(String(value));
    client.call('sim/load', { ...target, cpuMillicores: value }).then(
      () => {
        setBusy(false);
        loads.refresh();
      },
      (err: unknown) => {
        setBusy(false);
        setError(statusOf(err).message);
      },
    );
  };
  const submit = () => {
    const parsed = parseMillicores(text);
    if ('error' in parsed) setError(parsed.error);
    else send(parsed.value);
  };
  const sliderValue = Math.min(Number(text) || 0, sliderMaxMillicores);

  return (
    <section className="load-control" aria-labelledby={`${id}-title`}>
      <h4 id={`${id}-title`}>Load</h4>
      <p className="muted load-hint">CPU its traffic demands, shared by its ready pods (current: {applied}m).</p>
      <div className="load-inputs">
        <input
          type="range"
          aria-label="Load"
          min={0}
          max={sliderMaxMillicores}
          step={sliderStepMillicores}
          value={sliderValue}
          aria-valuetext={`${sliderValue} millicores`}
          onChange={(e) => setText(e.target.value)}
          onPointerUp={(e) => send(Number((e.target as HTMLInputElement).value))}
          onKeyUp={(e) => {
            if (e.key.startsWith('Arrow') || e.key === 'Home' || e.key === 'End' || e.key.startsWith('Page')) send(Number((e.target as HTMLInputElement).value));
          }}
          disabled={busy}
        />
        <label className="load-number">
          <span>Load (millicores)</span>
          <input
            type="number"
            min={0}
            max={maxMillicores}
            step={sliderStepMillicores}
            value={text}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') submit();
            }}
            aria-invalid={!!error}
          />
        </label>
        <button type="button" className="small" onClick={submit} disabled={busy}>
          Set load
        </button>
      </div>
      {error && (
        <p role="alert" className="load-error">
          {error}
        </p>
      )}
    </section>
  );
}
