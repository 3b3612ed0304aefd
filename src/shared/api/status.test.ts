import { describe, expect, it } from 'vitest';
import { StatusError, StatusReason, isStatusError, newAlreadyExists, newBadRequest, newConflict, newNotFound, OptimisticLockErrorMsg } from './status';

describe('expected failures (NotFound, AlreadyExists, Conflict)', () => {
  it('are StatusErrors with the errors.go texts, named StatusError, without stack frames', () => {
    const errs = [
      newNotFound({ group: '', resource: 'configmaps' }, 'kube-root-ca.crt'),
      newAlreadyExists({ group: 'apps', resource: 'deployments' }, 'web'),
      newConflict({ group: '', resource: 'pods' }, 'p', OptimisticLockErrorMsg),
    ];
    expect(errs.map((e) => e.message)).toEqual([
      'configmaps "kube-root-ca.crt" not found',
      'deployments.apps "web" already exists',
      'Operation cannot be fulfilled on pods "p": the object has been modified; please apply your changes to the latest version and try again',
    ]);
    expect(errs.map((e) => e.reason)).toEqual([StatusReason.NotFound, StatusReason.AlreadyExists, StatusReason.Conflict]);
    for (const e of errs) {
      expect(e).toBeInstanceOf(StatusError);
      expect(e).toBeInstanceOf(Error);
      expect(e.name).toBe('StatusError');
      expect(isStatusError(e, e.reason)).toBe(true);
      expect(e.stack).toBe(`StatusError: ${e.message}`);
    }
    expect(errs[0].status.details).toEqual({ name: 'kube-root-ca.crt', group: '', kind: 'configmaps' });
  });

  it('leave the stack trace limit as it was, and other errors keep their frames', () => {
    const limit = Error.stackTraceLimit;
    newNotFound({ group: '', resource: 'pods' }, 'x');
    expect(Error.stackTraceLimit).toBe(limit);
    expect(newBadRequest('bad').stack).toContain('status.test.ts');
  });
});
