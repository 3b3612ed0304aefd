import { describe, expect, it } from 'vitest';
import { fitErrorMessage, newDiagnosis } from './fit-error';
import { newStatus } from './status';

describe('FitError message', () => {
  it('counts reasons over nodes and sorts the "<count> <reason>" strings byte-wise', () => {
    const d = newDiagnosis();
    for (let i = 0; i < 10; i++) d.nodeToStatus.set(`big-${i}`, newStatus('Unschedulable', 'Insufficient memory'));
    d.nodeToStatus.set('t', newStatus('UnschedulableAndUnresolvable', 'node(s) had untolerated taint {a: b}'));
    d.nodeToStatus.set('u', newStatus('Unschedulable', 'Insufficient cpu', 'Insufficient memory'));
    d.nodeToStatus.set('v', newStatus('Unschedulable', 'Insufficient cpu'));
    // "10 …" sorts before "2 …", as Go's sort.Strings does.
    expect(fitErrorMessage(13, d)).toBe('0/13 nodes are available: 1 node(s) had untolerated taint {a: b}, 11 Insufficient memory, 2 Insufficient cpu.');
  });

  it('appends the PostFilter message, and uses a PreFilter message instead of the histogram', () => {
    const d = newDiagnosis();
    d.nodeToStatus.set('n', newStatus('Unschedulable', 'Insufficient cpu'));
    d.postFilterMsg = 'preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.';
    expect(fitErrorMessage(1, d)).toBe(
      '0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod..',
    );
    const p = newDiagnosis();
    p.preFilterMsg = 'pod affinity terms conflict';
    p.nodeToStatus.set('n', newStatus('UnschedulableAndUnresolvable', 'pod affinity terms conflict'));
    expect(fitErrorMessage(1, p)).toBe('0/1 nodes are available: pod affinity terms conflict.');
  });

  it('counts nodes absent from the map with the absent status', () => {
    const d = newDiagnosis();
    d.absentNodesStatus = newStatus('UnschedulableAndUnresolvable', 'Preemption is not helpful for scheduling');
    d.nodeToStatus.set('n', newStatus('UnschedulableAndUnresolvable', 'No preemption victims found for incoming pod'));
    expect(fitErrorMessage(3, d)).toBe('0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.');
  });
});
