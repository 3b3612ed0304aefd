import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import type { KubeObject } from '../../../shared/api/types';
import { toErrorView } from '../../state/errors';
import { appStore } from '../../state/store';
import { useClient } from '../../worker-client/context';

/** Creates a ConfigMap with one key through the API server; the table shows it once the watch delivers it. */
export function ConfigMapForm() {
  const client = useClient();
  const id = useId();
  const [name, setName] = useState('');
  const [namespace, setNamespace] = useState('default');
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const body: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: name.trim() } };
    if (key) body.data = { [key]: value };
    setBusy(true);
    try {
      const res = await client.call('api/request', {
        verb: 'create',
        group: '',
        version: 'v1',
        resource: 'configmaps',
        namespace: namespace.trim() || 'default',
        body,
      });
      const created = res.body as KubeObject;
      appStore.getState().showNotice(`configmap/${created.metadata.name} created`);
      setName('');
      setKey('');
      setValue('');
    } catch (err) {
      appStore.getState().showError(toErrorView(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="panel" aria-labelledby={`${id}-title`} onSubmit={submit}>
      <h2 id={`${id}-title`}>Create a ConfigMap</h2>
      <div className="fields">
        <label htmlFor={`${id}-name`}>Name</label>
        <input id={`${id}-name`} value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" spellCheck={false} />
        <label htmlFor={`${id}-namespace`}>Namespace</label>
        <input id={`${id}-namespace`} value={namespace} onChange={(e) => setNamespace(e.target.value)} autoComplete="off" spellCheck={false} />
        <label htmlFor={`${id}-key`}>Key</label>
        <input id={`${id}-key`} value={key} onChange={(e) => setKey(e.target.value)} autoComplete="off" spellCheck={false} />
        <label htmlFor={`${id}-value`}>Value</label>
        <input id={`${id}-value`} value={value} onChange={(e) => setValue(e.target.value)} autoComplete="off" spellCheck={false} />
      </div>
      <button type="submit" disabled={busy}>
        Create ConfigMap
      </button>
    </form>
  );
}
