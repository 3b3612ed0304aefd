import { describe, expect, it } from 'vitest';
import { containerFieldPath, containerSlot, resolvedImage } from './pod-worker';
import { parseImageReference, profileFor } from './images';

describe('pod worker shared records', () => {
  it('one resolved image per reference and id, carrying the image profile', () => {
    const ref = parseImageReference('nginx:1.27');
    const a = resolvedImage(ref.normalized, 'sha256:aa', ref);
    expect(resolvedImage(ref.normalized, 'sha256:aa', ref)).toBe(a);
    expect(resolvedImage(ref.normalized, 'sha256:bb', ref)).not.toBe(a);
    expect(Object.isFrozen(a)).toBe(true);
    expect(a.profile).toEqual(profileFor(ref));
  });

  it('container fieldPaths by kind, the same text however often asked', () => {
    expect(containerFieldPath('regular', 'web')).toBe('spec.containers{web}');
    expect(containerFieldPath('init', 'setup')).toBe('spec.initContainers{setup}');
    expect(containerFieldPath('sidecar', 'proxy')).toBe('spec.initContainers{proxy}');
    expect(containerFieldPath('regular', 'web')).toBe('spec.containers{web}');
  });

  it('one frozen slot per container kind and name', () => {
    const web = containerSlot('regular', 'web');
    expect(web).toEqual({ kind: 'regular', fieldPath: 'spec.containers{web}' });
    expect(Object.isFrozen(web)).toBe(true);
    expect(containerSlot('regular', 'web')).toBe(web);
    expect(containerSlot('sidecar', 'web')).toEqual({ kind: 'sidecar', fieldPath: 'spec.initContainers{web}' });
  });
});
