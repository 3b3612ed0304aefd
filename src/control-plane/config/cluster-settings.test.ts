import { describe, expect, it } from 'vitest';
import { StatusError } from '../../shared/api/status';
import {
  LiveClusterSettings,
  clusterSettingSpecs,
  defaultClusterSettings,
  initialClusterSettings,
  restoreClusterSettings,
  validateClusterSettings,
} from './cluster-settings';

function thrown(fn: () => unknown): StatusError {
  try {
    fn();
  } catch (err) {
    if (err instanceof StatusError) return err;
    throw err;
  }
  throw new Error('expected a StatusError');
}

describe('cluster settings model', () => {
  it('has the real Kubernetes defaults, marked as such, and the simulator default for the pull time', () => {
    const view = new LiveClusterSettings().view();
    expect(view.settings.map((s) => [s.key, s.value, s.defaultValue, s.kubernetesDefault])).toEqual([
      ['nodeMonitorGracePeriodSeconds', 40, 40, true],
      ['defaultTolerationSeconds', 300, 300, true],
      ['imagePullSeconds', 0, 0, false],
      ['nodeStatusUpdateFrequencySeconds', 10, 10, true],
    ]);
    expect(view.settings[0].flag).toBe('kube-controller-manager --node-monitor-grace-period');
    expect(view.settings[1].description).toMatch(/created afterwards only/);
    expect(defaultClusterSettings).toEqual({ nodeMonitorGracePeriodSeconds: 40, defaultTolerationSeconds: 300, imagePullSeconds: 0, nodeStatusUpdateFrequencySeconds: 10 });
  });

  it('refuses out-of-range values with the API server field error texts, as a 400 with a cause per field', () => {
    const live = new LiveClusterSettings();
    const err = thrown(() => live.configure({ nodeMonitorGracePeriodSeconds: 2 }));
    expect(err.status.code).toBe(400);
    expect(err.status.reason).toBe('BadRequest');
    expect(err.message).toBe('invalid cluster settings: nodeMonitorGracePeriodSeconds: Invalid value: 2: must be between 5 and 3600, inclusive');
    expect(err.status.details?.causes).toEqual([
      { reason: 'FieldValueInvalid', message: 'Invalid value: 2: must be between 5 and 3600, inclusive', field: 'nodeMonitorGracePeriodSeconds' },
    ]);

    const many = thrown(() => live.configure({ defaultTolerationSeconds: 1.5, imagePullSeconds: -1, nodeStatusUpdateFrequencySeconds: '5' as unknown as number }));
    expect(many.message).toBe(
      'invalid cluster settings: [defaultTolerationSeconds: Invalid value: 1.5: must be a whole number of seconds, ' +
        'imagePullSeconds: Invalid value: -1: must be between 0 and 600, inclusive, ' +
        'nodeStatusUpdateFrequencySeconds: Invalid value: "5": must be a number of seconds]',
    );
    expect(many.status.details?.causes?.map((c) => c.field)).toEqual(['defaultTolerationSeconds', 'imagePullSeconds', 'nodeStatusUpdateFrequencySeconds']);
  });

  it('names unknown settings and non-objects', () => {
    expect(validateClusterSettings({ podEvictionTimeout: 5 }).map((e) => [e.type, e.field])).toEqual([['FieldValueNotSupported', 'podEvictionTimeout']]);
    expect(thrown(() => new LiveClusterSettings().configure({ podEvictionTimeout: 5 })).message).toMatch(
      /^invalid cluster settings: podEvictionTimeout: Unsupported value: "podEvictionTimeout": supported values: "nodeMonitorGracePeriodSeconds", /,
    );
    expect(validateClusterSettings(null)).toHaveLength(1);
    expect(validateClusterSettings([1])).toHaveLength(1);
    expect(validateClusterSettings({ nodeMonitorGracePeriodSeconds: Number.NaN })[0].detail).toBe('must be a number of seconds');
    // The bounds themselves are accepted.
    for (const s of clusterSettingSpecs) expect(validateClusterSettings({ [s.key]: s.min })).toEqual([]);
    for (const s of clusterSettingSpecs) expect(validateClusterSettings({ [s.key]: s.max })).toEqual([]);
  });

  it('applies an update whole or not at all', () => {
    const live = new LiveClusterSettings();
    thrown(() => live.configure({ nodeMonitorGracePeriodSeconds: 10, defaultTolerationSeconds: -5 }));
    expect(live.get()).toEqual(defaultClusterSettings);
    live.configure({ nodeMonitorGracePeriodSeconds: 10, defaultTolerationSeconds: 30 });
    expect(live.get()).toEqual({ ...defaultClusterSettings, nodeMonitorGracePeriodSeconds: 10, defaultTolerationSeconds: 30 });
    // A partial update keeps the others.
    live.configure({ imagePullSeconds: 1 });
    expect(live.get()).toEqual({ nodeMonitorGracePeriodSeconds: 10, defaultTolerationSeconds: 30, imagePullSeconds: 1, nodeStatusUpdateFrequencySeconds: 10 });
  });

  it('notifies subscribers of real changes only, with the new and the previous settings', () => {
    const live = new LiveClusterSettings();
    const seen: [number, number][] = [];
    const stop = live.subscribe((next, prev) => seen.push([prev.nodeMonitorGracePeriodSeconds, next.nodeMonitorGracePeriodSeconds]));
    live.configure({ nodeMonitorGracePeriodSeconds: 40 });
    live.configure({ nodeMonitorGracePeriodSeconds: 15 });
    thrown(() => live.configure({ nodeMonitorGracePeriodSeconds: 1 }));
    stop();
    live.configure({ nodeMonitorGracePeriodSeconds: 20 });
    expect(seen).toEqual([[40, 15]]);
  });

  it('derives what the components read, in milliseconds', () => {
    const live = new LiveClusterSettings();
    expect(live.nodeMonitorGracePeriodMs).toBe(40_000);
    expect(live.defaultTolerationSeconds).toBe(300);
    expect(live.imagePullMs).toBeUndefined(); // by image size
    expect(live.nodeStatusUpdateFrequencyMs).toBe(10_000);
    // At the default, the status is posted on change or every 5 min (the Lease is the heartbeat) …
    expect(live.nodeStatusReportFrequencyMs).toBe(300_000);
    live.configure({ nodeMonitorGracePeriodSeconds: 7.5, imagePullSeconds: 1.25, nodeStatusUpdateFrequencySeconds: 5 });
    expect(live.nodeMonitorGracePeriodMs).toBe(7_500);
    expect(live.imagePullMs).toBe(1_250);
    // … set explicitly, the report frequency defaults to it (the kubelet configuration's defaulting).
    expect(live.nodeStatusUpdateFrequencyMs).toBe(5_000);
    expect(live.nodeStatusReportFrequencyMs).toBe(5_000);
  });

  it('reads back what older sessions saved: nothing, some keys, or values out of bounds', () => {
    expect(restoreClusterSettings(undefined)).toEqual(defaultClusterSettings);
    expect(restoreClusterSettings('garbage')).toEqual(defaultClusterSettings);
    expect(restoreClusterSettings({ defaultTolerationSeconds: 30 })).toEqual({ ...defaultClusterSettings, defaultTolerationSeconds: 30 });
    expect(restoreClusterSettings({ nodeMonitorGracePeriodSeconds: 1, imagePullSeconds: 'x', gone: 3, defaultTolerationSeconds: 60 })).toEqual({
      ...defaultClusterSettings,
      defaultTolerationSeconds: 60,
    });
  });

  it('starts from the saved settings, else the requested ones, else the defaults', () => {
    expect(initialClusterSettings(undefined, { nodeMonitorGracePeriodSeconds: 10, imagePullSeconds: undefined })).toEqual({
      ...defaultClusterSettings,
      nodeMonitorGracePeriodSeconds: 10,
    });
    expect(initialClusterSettings({ nodeMonitorGracePeriodSeconds: 20 }, { nodeMonitorGracePeriodSeconds: 10, defaultTolerationSeconds: 30 })).toEqual({
      ...defaultClusterSettings,
      nodeMonitorGracePeriodSeconds: 20,
      defaultTolerationSeconds: 30,
    });
    expect(thrown(() => initialClusterSettings(undefined, { defaultTolerationSeconds: -1 })).status.code).toBe(400);
    expect(() => new LiveClusterSettings({ nodeStatusUpdateFrequencySeconds: 0 })).toThrow(/must be between 1 and 300, inclusive/);
  });
});
