import { useState } from 'react';
import type { SimCommand } from '../../../shared/protocol/methods';
import { formatSimTime } from '../../lib/sim-time';
import { toErrorView } from '../../state/errors';
import { selectSim } from '../../state/selectors';
import { appStore, useAppStore } from '../../state/store';
import { useClient } from '../../worker-client/context';

const speeds = [0.25, 0.5, 1, 2, 5, 10, 25, 50];

/** Simulated time, and the controls that pause, resume, step and speed it. */
export function SimControls() {
  const client = useClient();
  const sim = useAppStore(selectSim);
  const [busy, setBusy] = useState(false);

  const control = async (cmd: SimCommand) => {
    setBusy(true);
    try {
      appStore.getState().setSim(await client.call('sim/control', cmd));
    } catch (err) {
      appStore.getState().showError(toErrorView(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="sim" aria-label="Simulation">
      <p className="sim-time">
        <span className="sim-label">Simulated time</span>{' '}
        {sim ? <time dateTime={new Date(sim.time).toISOString()}>{formatSimTime(sim.time)}</time> : <span>starting…</span>}
        {sim && <span className="sim-mode">{sim.paused ? ' (paused)' : ` (×${sim.speed})`}</span>}
      </p>
      {sim?.realtime && (
        <div className="sim-buttons">
          {sim.paused ? (
            <button type="button" disabled={busy} onClick={() => control({ action: 'resume' })}>
              Play
            </button>
          ) : (
            <button type="button" disabled={busy} onClick={() => control({ action: 'pause' })}>
              Pause
            </button>
          )}
          <button type="button" disabled={busy} onClick={() => control({ action: 'step' })}>
            Step
          </button>
          <label className="sim-speed">
            Speed{' '}
            <select value={String(sim.speed)} onChange={(e) => control({ action: 'speed', speed: Number(e.target.value) })}>
              {(speeds.includes(sim.speed) ? speeds : [...speeds, sim.speed].sort((a, b) => a - b)).map((s) => (
                <option key={s} value={String(s)}>
                  ×{s}
                </option>
              ))}
            </select>
          </label>
        </div>
      )}
    </section>
  );
}
