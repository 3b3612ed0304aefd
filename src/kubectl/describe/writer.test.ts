import { describe, expect, it } from 'vitest';
import { smartLabelFor } from './generic';
import { humanDuration } from '../../shared/lib/duration';
import { BufferPrefixWriter, printAnnotationsMultiline, printLabelsMultiline, printTolerationsMultiline, rfc1123z, taintToString } from './writer';

describe('describe writers', () => {
  it('HumanDuration thresholds', () => {
    const s = 1000;
    expect([0, 59 * s, 119 * s, 120 * s, 125 * s, 599 * s, 600 * s, 179 * 60 * s, 3 * 3600 * s + 5 * 60 * s, 8 * 3600 * s, 47 * 3600 * s, 50 * 3600 * s, 8 * 86400 * s, 800 * 86400 * s].map(humanDuration)).toEqual([
      '0s', '59s', '119s', '2m', '2m5s', '9m59s', '10m', '179m', '3h5m', '8h', '47h', '2d2h', '8d', '2y70d',
    ]);
    expect(humanDuration(-1500)).toBe('0s');
    expect(humanDuration(-2000)).toBe('<invalid>');
  });

  it('RFC1123Z in UTC', () => {
    expect(rfc1123z('2026-03-05T07:08:09Z')).toBe('Thu, 05 Mar 2026 07:08:09 +0000');
  });

  it('labels, annotations (last-applied hidden, long ones folded) and tolerations on several lines', () => {
    const w = new BufferPrefixWriter();
    printLabelsMultiline(w, 'Labels', { b: '2', a: '1' });
    printAnnotationsMultiline(w, 'Annotations', { 'kubectl.kubernetes.io/last-applied-configuration': '{}', note: 'x'.repeat(150) });
    printTolerationsMultiline(w, 'Tolerations', [{ operator: 'Exists' }, { key: 'k', operator: 'Equal', value: 'v', effect: 'NoSchedule' }, { key: 'n', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 }]);
    expect(w.render()).toBe(
      `Labels:       a=1\n              b=2\nAnnotations:  note:\n                ${'x'.repeat(138)}...\nTolerations:  op=Exists\n              k=v:NoSchedule\n              n:NoExecute op=Exists for 30s\n`,
    );
  });

  it('taints as Taint.ToString', () => {
    expect(taintToString({ key: 'k', value: 'v', effect: 'NoSchedule' })).toBe('k=v:NoSchedule');
    expect(taintToString({ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' })).toBe('node.kubernetes.io/unreachable:NoExecute');
  });

  it('smart labels of the generic describer', () => {
    expect(['apiVersion', 'uid', 'creationTimestamp', 'holderIdentity', 'HTTPServer', 'f:metadata', 'v1beta1'].map(smartLabelFor)).toEqual([
      'API Version', 'UID', 'Creation Timestamp', 'Holder Identity', 'HTTP Server', 'f:metadata', 'v1beta1',
    ]);
  });
});
