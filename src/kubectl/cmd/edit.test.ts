import { afterEach, describe, expect, it } from 'vitest';
import { createCluster, type Cluster } from '../../control-plane/cluster';
import { kubectl } from '../cli/testing';

let cluster: Cluster;
afterEach(async () => {
  await cluster?.close();
});

const header = [
  "# Please edit the object below. Lines beginning with a '#' will be ignored,",
  '# and an empty file will abort the edit. If an error occurs while saving this file will be',
  '# reopened with the relevant failures.',
  '#',
];

async function clusterWithNginx(): Promise<Cluster> {
  const c = await createCluster({ seed: 11, nodes: 1 });
  await kubectl(c, 'kubectl create deployment nginx --image=nginx:1.14.2 --replicas=3');
  await kubectl(c, 'kubectl rollout status deployment/nginx');
  return c;
}

/** An editor that answers each opening with the next function's result, recording what it was shown. */
function editor(...answers: ((text: string) => string | undefined)[]) {
  const shown: { text: string; title: string }[] = [];
  return {
    shown,
    openEditor: (text: string, title: string) => {
      shown.push({ text, title });
      const answer = answers[shown.length - 1];
      if (!answer) throw new Error(`editor opened ${shown.length} times`);
      return answer(text);
    },
  };
}

describe('kubectl edit', () => {
  it('shows the object under kubectl\'s header and patches what was changed', async () => {
    cluster = await clusterWithNginx();
    const ed = editor((text) => text.replace('  replicas: 3\n', '  replicas: 5\n'));
    const r = await kubectl(cluster, 'kubectl edit deployment/nginx', { openEditor: ed.openEditor });
    expect(r).toMatchObject({ exitCode: 0, stdout: 'deployment.apps/nginx edited\n', stderr: '' });
    const { text, title } = ed.shown[0];
    expect(text.split('\n').slice(0, 6)).toEqual([...header, 'apiVersion: apps/v1', 'kind: Deployment']);
    expect(title).toBe('deployment.apps/nginx');
    expect(text).not.toContain('managedFields');
    expect(text).toContain('\n  resourceVersion: "');
    expect(text).toContain('\nstatus:\n');
    const d = cluster.client.deployments.get('nginx', { namespace: 'default' });
    expect(d.spec!.replicas).toBe(5);
    expect(d.metadata!.managedFields!.some((m) => m.manager === 'kubectl-edit' && m.operation === 'Update')).toBe(true);
  });

  it('an unchanged, closed or emptied file changes nothing', async () => {
    cluster = await clusterWithNginx();
    const rv = cluster.client.deployments.get('nginx', { namespace: 'default' }).metadata!.resourceVersion;
    expect(await kubectl(cluster, 'kubectl edit deploy nginx', { openEditor: (t) => t })).toMatchObject({ exitCode: 0, stdout: '', stderr: 'Edit cancelled, no changes made.\n' });
    expect(await kubectl(cluster, 'kubectl edit deploy nginx', { openEditor: () => undefined })).toMatchObject({ exitCode: 0, stderr: 'Edit cancelled, no changes made.\n' });
    // Comments and spacing are not changes.
    expect(await kubectl(cluster, 'kubectl edit deploy nginx', { openEditor: (t) => `# mine\n${t}\n\n` })).toMatchObject({ stderr: 'Edit cancelled, no changes made.\n' });
    expect(await kubectl(cluster, 'kubectl edit deploy nginx', { openEditor: () => '# nothing\n\n' })).toMatchObject({ exitCode: 0, stderr: 'Edit cancelled, saved file was empty.\n' });
    expect(cluster.client.deployments.get('nginx', { namespace: 'default' }).metadata!.resourceVersion).toBe(rv);
  });

  it('an invalid edit is reported and reopened with the causes; saving it again unchanged gives up', async () => {
    cluster = await clusterWithNginx();
    const ed = editor(
      (text) => text.replace('  replicas: 3\n', '  replicas: -1\n'),
      (text) => text,
    );
    const r = await kubectl(cluster, 'kubectl edit deployment/nginx', { openEditor: ed.openEditor });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^error: deployments\.apps "nginx" is invalid\nA copy of your changes has been stored to "\/tmp\/kubectl-edit-\d+\.yaml"\nerror: Edit cancelled, no valid changes were saved\.\n$/,
    );
    const reopened = ed.shown[1].text.split('\n');
    expect(reopened.slice(0, 8)).toEqual([
      ...header,
      '# deployments.apps "nginx" was not valid:',
      '# * spec.replicas: Invalid value: -1: must be greater than or equal to 0',
      '#',
      'apiVersion: apps/v1',
    ]);
    expect(ed.shown[1].text).toContain('  replicas: -1\n');
    expect(cluster.client.deployments.get('nginx', { namespace: 'default' }).spec!.replicas).toBe(3);
  });

  it('an invalid edit fixed on the second try is applied', async () => {
    cluster = await clusterWithNginx();
    const ed = editor(
      (text) => text.replace('  replicas: 3\n', '  replicas: -1\n'),
      (text) => text.replace('  replicas: -1\n', '  replicas: 2\n'),
    );
    const r = await kubectl(cluster, 'kubectl edit deployment/nginx', { openEditor: ed.openEditor });
    expect(r).toMatchObject({ exitCode: 0, stdout: 'deployment.apps/nginx edited\n', stderr: 'error: deployments.apps "nginx" is invalid\n' });
    expect(cluster.client.deployments.get('nginx', { namespace: 'default' }).spec!.replicas).toBe(2);
  });

  it('a syntax error reopens the file with the error in the header', async () => {
    cluster = await clusterWithNginx();
    const ed = editor(
      (text) => text.replace('kind: Deployment\n', 'kind: Deployment\n  bad: [\n'),
      (text) => text.replace('  bad: [\n', '').replace('  replicas: 3\n', '  replicas: 4\n'),
    );
    const r = await kubectl(cluster, 'kubectl edit deployment/nginx', { openEditor: ed.openEditor });
    expect(r).toMatchObject({ exitCode: 0, stdout: 'deployment.apps/nginx edited\n', stderr: '' });
    const second = ed.shown[1].text.split('\n');
    expect(second.slice(0, 4)).toEqual(header);
    expect(second[4]).toMatch(/^# The edited file had a syntax error: error parsing edited-file: error converting YAML to JSON: yaml: line \d+: /);
    expect(cluster.client.deployments.get('nginx', { namespace: 'default' }).spec!.replicas).toBe(4);
  });

  it('refuses a changed name, and reports other API errors with the replace hint', async () => {
    cluster = await clusterWithNginx();
    const renamed = await kubectl(cluster, 'kubectl edit deployment/nginx', { openEditor: (t) => t.replace('  name: nginx\n  namespace', '  name: other\n  namespace') });
    expect(renamed.exitCode).toBe(1);
    expect(renamed.stderr).toMatch(/^A copy of your changes has been stored to "\/tmp\/kubectl-edit-\d+\.yaml"\nerror: At least one of apiVersion, kind and name was changed\n$/);

    // A stale resourceVersion in the edit is a conflict: not retried on the spot.
    const stale = await kubectl(cluster, 'kubectl edit deployment/nginx', {
      openEditor: (t) => t.replace(/ {2}resourceVersion: "\d+"/, '  resourceVersion: "1"').replace('  replicas: 3\n', '  replicas: 4\n'),
    });
    expect(stale.exitCode).toBe(1);
    expect(stale.stderr).toMatch(
      /^error: deployments\.apps "nginx" could not be patched: Operation cannot be fulfilled on deployments\.apps "nginx": the object has been modified; please apply your changes to the latest version and try again\nYou can run `kubectl replace -f \/tmp\/kubectl-edit-\d+\.yaml` to try this update again\.\n$/,
    );
  });

  it('edits several objects as one List, patching only the changed ones; --output-patch shows the patch', async () => {
    cluster = await clusterWithNginx();
    await kubectl(cluster, 'kubectl create configmap a --from-literal=k=v');
    await kubectl(cluster, 'kubectl create configmap b --from-literal=k=v');
    const ed = editor((text) => text.replace('    k: v\n  kind: ConfigMap\n  metadata:\n    creationTimestamp', '    k: changed\n  kind: ConfigMap\n  metadata:\n    creationTimestamp'));
    const r = await kubectl(cluster, 'kubectl edit configmap a b --output-patch', { openEditor: ed.openEditor });
    expect(ed.shown[0].text).toContain('\napiVersion: v1\nitems:\n- apiVersion: v1\n');
    expect(ed.shown[0].text.endsWith('kind: List\nmetadata: {}\n')).toBe(true);
    expect(r).toMatchObject({ exitCode: 0, stdout: 'Patch: {"data":{"k":"changed"}}\nconfigmap/a edited\nconfigmap/b skipped\n' });
    expect(cluster.client.configMaps.get('a', { namespace: 'default' }).data).toEqual({ k: 'changed' });
  });

  it('errors before opening the editor', async () => {
    cluster = await clusterWithNginx();
    const ed = editor();
    expect(await kubectl(cluster, 'kubectl edit deployment/none', { openEditor: ed.openEditor })).toMatchObject({ exitCode: 1, stderr: 'Error from server (NotFound): deployments.apps "none" not found\n' });
    expect(await kubectl(cluster, 'kubectl edit statefulsets', { openEditor: ed.openEditor })).toMatchObject({ exitCode: 1, stderr: 'error: edit cancelled, no objects found\n' });
    expect(await kubectl(cluster, 'kubectl edit deploy/nginx -o wide', { openEditor: ed.openEditor })).toMatchObject({
      exitCode: 1,
      stderr: 'error: unable to match a printer suitable for the output format "wide", allowed formats are: json,yaml\n',
    });
    expect(ed.shown).toHaveLength(0);
  });
});
