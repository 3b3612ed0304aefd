// IPv4 CIDR math for ipBlock peers. IPv6 addresses and blocks never match IPv4 ones (the simulated cluster is IPv4).

/** The address as an unsigned 32-bit number, or undefined when it is not a dotted-quad IPv4 address. */
export function parseIPv4(ip: string): number | undefined {
  const parts = ip.trim().split('.');
  if (parts.length !== 4) return undefined;
  let n = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return undefined;
    const octet = Number(part);
    if (octet > 255) return undefined;
    n = n * 256 + octet;
  }
  return n;
}

/** Whether the IPv4 CIDR block contains the address; a malformed block or address contains nothing. */
export function cidrContains(cidr: string, ip: string): boolean {
  const slash = cidr.indexOf('/');
  if (slash < 0) return false;
  const base = parseIPv4(cidr.slice(0, slash));
  const bitsText = cidr.slice(slash + 1);
  const addr = parseIPv4(ip);
  if (base === undefined || addr === undefined || !/^\d{1,2}$/.test(bitsText)) return false;
  const bits = Number(bitsText);
  if (bits > 32) return false;
  if (bits === 0) return true;
  const size = 2 ** (32 - bits);
  return Math.floor(base / size) === Math.floor(addr / size);
}
