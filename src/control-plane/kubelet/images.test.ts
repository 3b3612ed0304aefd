import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { InvalidImageNameError, misspellingOf, parseImageReference, resolvePull } from './images';
import { formatGoDuration } from './format';
import { Backoff } from './backoff';

describe('image references', () => {
  it('normalises as containerd does', () => {
    expect(parseImageReference('nginx').normalized).toBe('docker.io/library/nginx:latest');
    expect(parseImageReference('nginx:1.14.2').normalized).toBe('docker.io/library/nginx:1.14.2');
    expect(parseImageReference('polinux/stress').normalized).toBe('docker.io/polinux/stress:latest');
    expect(parseImageReference('registry.k8s.io/pause:3.10').normalized).toBe('registry.k8s.io/pause:3.10');
    expect(parseImageReference('localhost:5000/app').repository).toBe('localhost:5000/app');
    expect(() => parseImageReference('NGINX')).toThrow(InvalidImageNameError);
    expect(() => parseImageReference('NGINX')).toThrow('couldn\'t parse image reference "NGINX": invalid reference format: repository name must be lowercase');
  });

  it('pulls real tags of well-known images and fails the classic mistakes', () => {
    for (const ok of ['nginx:1.14.2', 'nginx:1.27', 'nginx:1.27.5-alpine', 'nginx:stable-alpine', 'busybox:1.28', 'redis:5', 'mysql:8.0', 'postgres:16-alpine', 'python:3.12-slim', 'alpine:3.20']) {
      expect(resolvePull(parseImageReference(ok)).ok, ok).toBe(true);
    }
    const notFound = resolvePull(parseImageReference('nginx:1.999'));
    expect(notFound).toMatchObject({ ok: false });
    expect(!notFound.ok && notFound.message).toBe(
      'rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:1.999": failed to resolve reference "docker.io/library/nginx:1.999": docker.io/library/nginx:1.999: not found',
    );
    expect(resolvePull(parseImageReference('busybox:1.99')).ok).toBe(false);
    const typo = resolvePull(parseImageReference('ngnix'));
    expect(!typo.ok && typo.message).toContain('pull access denied, repository does not exist or may require authorization');
    expect(misspellingOf('ngnix')).toBe('nginx');
    const host = resolvePull(parseImageReference('my-registry.example.com/app:1.0'));
    expect(!host.ok && host.message).toContain('Head "https://my-registry.example.com/v2/app/manifests/1.0": dial tcp: lookup my-registry.example.com: no such host');
  });

  it('gives the same digest for the same reference', () => {
    const a = resolvePull(parseImageReference('nginx:1.14.2'));
    const b = resolvePull(parseImageReference('docker.io/library/nginx:1.14.2'));
    expect(a.ok && a.imageID).toBe(b.ok && b.imageID);
  });

  it('pulls every image of the docs manifests', () => {
    const root = join(__dirname, '../../../../shared/manifests');
    if (!existsSync(root)) return;
    const walk = (d: string): string[] => readdirSync(d).flatMap((e) => (statSync(join(d, e)).isDirectory() ? walk(join(d, e)) : e.endsWith('.yaml') ? [join(d, e)] : []));
    const images = walk(root).flatMap((f) => [...readFileSync(f, 'utf8').matchAll(/image:\s*"?([^\s",]+)"?/g)].map((m) => m[1]));
    expect(images.length).toBeGreaterThan(20);
    for (const image of images) expect(resolvePull(parseImageReference(image)).ok, image).toBe(true);
  });
});

describe('formatting and back-off', () => {
  it('formats durations as Go does', () => {
    expect(formatGoDuration(313)).toBe('313ms');
    expect(formatGoDuration(1661)).toBe('1.661s');
    expect(formatGoDuration(2100)).toBe('2.1s');
    expect(formatGoDuration(80_000)).toBe('1m20s');
    expect(formatGoDuration(300_000)).toBe('5m0s');
  });

  it('doubles from 10 s to 5 min and resets after 10 min', () => {
    const b = new Backoff();
    const periods: number[] = [];
    for (let i = 0; i < 7; i++) {
      b.next('k', i * 1000, i * 1000);
      periods.push(b.get('k'));
    }
    expect(periods).toEqual([10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000]);
    b.next('k', 6000 + 600_001, 6000 + 600_001);
    expect(b.get('k')).toBe(10_000);
  });
});
