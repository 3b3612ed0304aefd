import { describe, expect, it } from 'vitest';
import { completeNodeConfig, defaultInternalIP, defaultNodeConfigs, defaultPodCIDR } from './node-config';

const octets = (ip: string): number[] => ip.split('.').map(Number);
const validIPv4 = (ip: string): boolean => octets(ip).length === 4 && octets(ip).every((o) => Number.isInteger(o) && o >= 0 && o <= 255);

describe('default node addresses', () => {
  it('numbers the first nodes as minikube does', () => {
    const [first, second] = defaultNodeConfigs(2).map((c, i) => completeNodeConfig(c, i + 1));
    expect([first.internalIP, first.podCIDR]).toEqual(['192.168.49.2', '10.244.1.0/24']);
    expect([second.internalIP, second.podCIDR]).toEqual(['192.168.49.3', '10.244.2.0/24']);
    expect(defaultInternalIP(254)).toBe('192.168.49.255');
    expect(defaultPodCIDR(255)).toBe('10.244.255.0/24');
  });

  it('continues in further ranges past the last octet', () => {
    expect(defaultInternalIP(255)).toBe('192.168.50.1');
    expect(defaultInternalIP(508)).toBe('192.168.50.254');
    expect(defaultInternalIP(509)).toBe('192.168.51.1');
    expect(defaultPodCIDR(256)).toBe('10.128.0.0/24');
    expect(defaultPodCIDR(512)).toBe('10.129.0.0/24');
  });

  it('gives 5,000 nodes valid, distinct addresses', () => {
    const configs = defaultNodeConfigs(5000).map((c, i) => completeNodeConfig(c, i + 1));
    const ips = configs.map((c) => c.internalIP);
    const cidrs = configs.map((c) => c.podCIDR);
    expect(ips.every(validIPv4)).toBe(true);
    expect(cidrs.every((c) => validIPv4(c.split('/')[0]) && c.endsWith('.0/24'))).toBe(true);
    expect(new Set(ips).size).toBe(5000);
    expect(new Set(cidrs).size).toBe(5000);
  });
});
