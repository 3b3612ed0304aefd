// The Settings dialog's "Playground limits": kubeplay's own caps (not Kubernetes') with the current usage, read
// from the worker (cluster/limits) when the dialog opens. A request over a cap is refused by the API server with
// an error naming the limit; this says where the limits stand before that happens.
import { useEffect, useId, useState } from 'react';
import { useClient } from '../../worker-client/context';
import { fetchPlaygroundLimits, usageFraction, usageText, type PlaygroundLimitsView } from './limits-view';

/** The table alone (rendered by tests without a worker). */
export function PlaygroundLimitsTable({ view }: { view: PlaygroundLimitsView }) {
  const captionId = useId();
  return (
    <table className="limits-table" aria-labelledby={captionId}>
      <caption id={captionId}>Playground limits</caption>
      <thead>
        <tr>
          <th scope="col">Limit</th>
          <th scope="col">Used / limit</th>
          <th scope="col">What counts</th>
        </tr>
      </thead>
      <tbody>
        {view.limits.map((l) => {
          const fraction = usageFraction(l);
          return (
            <tr key={l.key} className={fraction !== undefined && fraction >= 0.9 ? 'limit-near' : undefined}>
              <th scope="row">{l.label}</th>
              <td>
                {usageText(l)}
                {fraction !== undefined && <meter className="limit-meter" aria-label={`${l.label} used`} min={0} max={1} high={0.9} value={fraction} />}
              </td>
              <td className="muted">{l.description}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

export function PlaygroundLimitsSection() {
  const client = useClient();
  const [view, setView] = useState<PlaygroundLimitsView>();
  const [error, setError] = useState<string>();

  useEffect(() => {
    let live = true;
    fetchPlaygroundLimits(client)
      .then((v) => live && setView(v))
      .catch((err: unknown) => live && setError(err instanceof Error ? err.message : String(err)));
    return () => {
      live = false;
    };
  }, [client]);

  return (
    <section className="limits-section" aria-label="Playground limits">
      <p className="muted settings-intro">
        kubeplay’s own caps, not Kubernetes’: they keep this tab responsive. Past one, the API server refuses the request with an error
        naming the limit (403 Forbidden; 429 Too Many Requests for events).
      </p>
      {view ? <PlaygroundLimitsTable view={view} /> : error ? <p className="setting-error">Limits unavailable: {error}</p> : <p className="muted">Loading limits…</p>}
    </section>
  );
}
