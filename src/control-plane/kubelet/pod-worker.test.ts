import { describe, expect, it } from 'vitest';
import { containerFieldPath, resolvedImage } from './pod-worker';
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
});
