import { afterEach, describe, expect, it } from 'vitest';
import { ProtocolError } from '../../../shared/protocol/client';
import type { ClusterSettingsView } from '../../../shared/protocol/introspection';
import { createHeadlessCluster, type HeadlessCluster } from '../../../worker/headless';
import { defaultHint, defaultsOf, demoTimings, errorsFromStatus, isDirty, parseForm, presetValues, valuesOf } from './settings-form';

let h: HeadlessCluster | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function view(): Promise<ClusterSettingsView> {
  h = await createHeadlessCluster({ nodes: 0 });
  return h.client.call('cluster/settings');
}

describe('settings form', () => {
  it('shows each default as Kubernetes\' own or the simulator\'s', async () => {
    const v = await view();
    expect(v.settings.map(defaultHint)).toEqual([
      'Kubernetes default: 40 s',
      'Kubernetes default: 300 s',
      'Simulator default: 0 s (by image size)',
      'Kubernetes default: 10 s',
    ]);
  });

  it('fills the presets and parses them into a configure request the worker accepts', async () => {
    const v = await view();
    expect(valuesOf(v)).toEqual(defaultsOf(v));
    expect(isDirty(valuesOf(v), v)).toBe(false);
    const demo = presetValues(demoTimings);
    expect(demo).toEqual({ nodeMonitorGracePeriodSeconds: '10', defaultTolerationSeconds: '30', imagePullSeconds: '1', nodeStatusUpdateFrequencySeconds: '5' });
    expect(isDirty(demo, v)).toBe(true);
    const parsed = parseForm(demo);
    if (!('params' in parsed)) throw new Error('demo timings did not parse');
    const applied = await h!.client.call('cluster/configure', parsed.params);
    expect(valuesOf(applied)).toEqual(demo);
    // Restore defaults gives the real defaults back, whatever the cluster runs with now.
    expect(parseForm(defaultsOf(applied))).toEqual({ params: { nodeMonitorGracePeriodSeconds: 40, defaultTolerationSeconds: 300, imagePullSeconds: 0, nodeStatusUpdateFrequencySeconds: 10 } });
  });

  it('refuses what is not a number before asking the worker', () => {
    const values = { nodeMonitorGracePeriodSeconds: '', defaultTolerationSeconds: 'abc', imagePullSeconds: ' 2 ', nodeStatusUpdateFrequencySeconds: '5' };
    expect(parseForm(values)).toEqual({
      errors: { nodeMonitorGracePeriodSeconds: 'Required value: a number of seconds', defaultTolerationSeconds: 'Invalid value: "abc": must be a number of seconds' },
    });
  });

  it('puts the worker\'s field errors on their inputs', async () => {
    await view();
    const err = await h!.client.call('cluster/configure', { nodeMonitorGracePeriodSeconds: 1, imagePullSeconds: 9999 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProtocolError);
    expect(errorsFromStatus((err as ProtocolError).status)).toEqual({
      fields: {
        nodeMonitorGracePeriodSeconds: 'Invalid value: 1: must be between 5 and 3600, inclusive',
        imagePullSeconds: 'Invalid value: 9999: must be between 0 and 600, inclusive',
      },
    });
    // A failure that names no input keeps its message.
    expect(errorsFromStatus({ message: 'the worker went away' })).toEqual({ fields: {}, other: 'the worker went away' });
  });
});
