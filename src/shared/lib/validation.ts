// Name, label and key validators of apimachinery/pkg/util/validation/validation.go and
// apimachinery/pkg/api/validation (generic.go, path/name.go), with the same messages. Each check returns a
// list of messages (empty = valid), as the Go functions do; callers wrap them into field errors.
//
// Lengths are checked before regexes (as Kubernetes does) so a huge input never reaches a backtracking RegExp.
// Go measures strings in bytes; utf8Length gives the same count for non-ASCII input.

const qnameCharFmt = '[A-Za-z0-9]';
const qnameExtCharFmt = '[-A-Za-z0-9_.]';
const qualifiedNameFmt = `(${qnameCharFmt}${qnameExtCharFmt}*)?${qnameCharFmt}`;
const qualifiedNameErrMsg =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const qualifiedNameMaxLength = 63;
const qualifiedNameRegexp = new RegExp(`^${qualifiedNameFmt}$`);

const labelValueFmt = `(${qualifiedNameFmt})?`;
const labelValueErrMsg =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
export const LabelValueMaxLength = 63;
const labelValueRegexp = new RegExp(`^${labelValueFmt}$`);

const dns1123LabelFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const dns1123LabelErrMsg =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
export const DNS1123LabelMaxLength = 63;
const dns1123LabelRegexp = new RegExp(`^${dns1123LabelFmt}$`);

const dns1123SubdomainFmt = `${dns1123LabelFmt}(\\.${dns1123LabelFmt})*`;
const dns1123SubdomainErrorMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
export const DNS1123SubdomainMaxLength = 253;
const dns1123SubdomainRegexp = new RegExp(`^${dns1123SubdomainFmt}$`);

const dns1035LabelFmt = '[a-z]([-a-z0-9]*[a-z0-9])?';
const dns1035LabelErrMsg =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
export const DNS1035LabelMaxLength = 63;
const dns1035LabelRegexp = new RegExp(`^${dns1035LabelFmt}$`);

const wildcardDNS1123SubdomainFmt = `\\*\\.${dns1123SubdomainFmt}`;
const wildcardDNS1123SubdomainErrMsg =
  "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character";
const wildcardDNS1123SubdomainRegexp = new RegExp(`^${wildcardDNS1123SubdomainFmt}$`);

const cIdentifierFmt = '[A-Za-z_][A-Za-z0-9_]*';
const identifierErrMsg =
  "a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_'";
const cIdentifierRegexp = new RegExp(`^${cIdentifierFmt}$`);

const envVarNameFmt = '[-._a-zA-Z][-._a-zA-Z0-9]*';
const envVarNameFmtErrMsg =
  "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit";
const envVarNameRegexp = new RegExp(`^${envVarNameFmt}$`);

const configMapKeyFmt = '[-._a-zA-Z0-9]+';
const configMapKeyErrMsg = "a valid config key must consist of alphanumeric characters, '-', '_' or '.'";
const configMapKeyRegexp = new RegExp(`^${configMapKeyFmt}$`);

const percentFmt = '[0-9]+%';
const percentErrMsg = "a valid percent string must be a numeric string followed by an ending '%'";
const percentRegexp = new RegExp(`^${percentFmt}$`);

const httpHeaderNameFmt = '[-A-Za-z0-9]+';
const httpHeaderNameErrMsg = "a valid HTTP header must consist of alphanumeric characters or '-'";
const httpHeaderNameRegexp = new RegExp(`^${httpHeaderNameFmt}$`);

const encoder = new TextEncoder();

/** Longer inputs skip the regex and count as not matching: RE2 is linear, JavaScript's RegExp backtracks. */
const regexInputLimit = 16384;

/** Byte length of the UTF-8 encoding: what Go's len(string) returns. */
export function utf8Length(s: string): number {
  // Fast path: pure ASCII strings have one byte per UTF-16 unit.
  // eslint-disable-next-line no-control-regex
  return /^[\x00-\x7f]*$/.test(s) ? s.length : encoder.encode(s).length;
}

// ---------------------------------------------------------------- message helpers

export function maxLenError(length: number): string {
  return `must be no more than ${length} characters`;
}

/** `msg (e.g. 'a',  or 'b', regex used for validation is 'fmt')`: the double space is what Kubernetes prints. */
export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  let out = `${msg} (e.g. `;
  examples.forEach((ex, i) => {
    if (i > 0) out += ' or ';
    out += `'${ex}', `;
  });
  return `${out}regex used for validation is '${fmt}')`;
}

export function emptyError(): string {
  return 'must be non-empty';
}

export function inclusiveRangeError(lo: number, hi: number): string {
  return `must be between ${lo} and ${hi}, inclusive`;
}

function prefixEach(msgs: string[], prefix: string): string[] {
  return msgs.map((m) => prefix + m);
}

function hasChDirPrefix(value: string): string[] {
  if (value === '.') return [`must not be '.'`];
  if (value === '..') return [`must not be '..'`];
  if (value.startsWith('..')) return [`must not start with '..'`];
  return [];
}

// ---------------------------------------------------------------- names and keys

/** Label keys, annotation keys, finalizers: an optional DNS-subdomain prefix and '/', then a name of ≤ 63. */
export function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0];
  } else if (parts.length === 2) {
    const prefix = parts[0];
    name = parts[1];
    if (prefix.length === 0) errs.push(`prefix part ${emptyError()}`);
    else {
      const msgs = isDNS1123Subdomain(prefix);
      if (msgs.length) errs.push(...prefixEach(msgs, 'prefix part '));
    }
  } else {
    errs.push(
      `a qualified name ${regexError(qualifiedNameErrMsg, qualifiedNameFmt, 'MyName', 'my.name', '123-abc')}` +
        " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    );
    return errs;
  }
  if (name.length === 0) errs.push(`name part ${emptyError()}`);
  else if (utf8Length(name) > qualifiedNameMaxLength) errs.push(`name part ${maxLenError(qualifiedNameMaxLength)}`);
  if (utf8Length(name) > regexInputLimit || !qualifiedNameRegexp.test(name)) {
    errs.push(`name part ${regexError(qualifiedNameErrMsg, qualifiedNameFmt, 'MyName', 'my.name', '123-abc')}`);
  }
  return errs;
}

export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  const len = utf8Length(value);
  if (len > LabelValueMaxLength) errs.push(maxLenError(LabelValueMaxLength));
  if (len > regexInputLimit || !labelValueRegexp.test(value)) {
    errs.push(regexError(labelValueErrMsg, labelValueFmt, 'MyValue', 'my_value', '12345'));
  }
  return errs;
}

export function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  const len = utf8Length(value);
  if (len > DNS1123LabelMaxLength) errs.push(maxLenError(DNS1123LabelMaxLength));
  if (len > regexInputLimit || !dns1123LabelRegexp.test(value)) {
    if (len <= regexInputLimit && dns1123SubdomainRegexp.test(value)) errs.push('must not contain dots');
    else errs.push(regexError(dns1123LabelErrMsg, dns1123LabelFmt, 'my-name', '123-abc'));
  }
  return errs;
}

export function isDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  const len = utf8Length(value);
  if (len > DNS1123SubdomainMaxLength) errs.push(maxLenError(DNS1123SubdomainMaxLength));
  if (len > regexInputLimit || !dns1123SubdomainRegexp.test(value)) {
    errs.push(regexError(dns1123SubdomainErrorMsg, dns1123SubdomainFmt, 'example.com'));
  }
  return errs;
}

export function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  const len = utf8Length(value);
  if (len > DNS1035LabelMaxLength) errs.push(maxLenError(DNS1035LabelMaxLength));
  if (len > regexInputLimit || !dns1035LabelRegexp.test(value)) {
    errs.push(regexError(dns1035LabelErrMsg, dns1035LabelFmt, 'my-name', 'abc-123'));
  }
  return errs;
}

export function isWildcardDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  const len = utf8Length(value);
  if (len > DNS1123SubdomainMaxLength) errs.push(maxLenError(DNS1123SubdomainMaxLength));
  if (len > regexInputLimit || !wildcardDNS1123SubdomainRegexp.test(value)) {
    errs.push(regexError(wildcardDNS1123SubdomainErrMsg, wildcardDNS1123SubdomainFmt, '*.example.com'));
  }
  return errs;
}

export function isCIdentifier(value: string): string[] {
  return cIdentifierRegexp.test(value) ? [] : [regexError(identifierErrMsg, cIdentifierFmt, 'my_name', 'MY_NAME', 'MyName')];
}

export function isEnvVarName(value: string): string[] {
  const errs: string[] = [];
  if (!envVarNameRegexp.test(value)) {
    errs.push(regexError(envVarNameFmtErrMsg, envVarNameFmt, 'my.env-name', 'MY_ENV.NAME', 'MyEnvName1'));
  }
  errs.push(...hasChDirPrefix(value));
  return errs;
}

/** ConfigMap and Secret data keys (B22): `__proto__` is a valid key, `..x` is not. */
export function isConfigMapKey(value: string): string[] {
  const errs: string[] = [];
  const len = utf8Length(value);
  if (len > DNS1123SubdomainMaxLength) errs.push(maxLenError(DNS1123SubdomainMaxLength));
  if (len > regexInputLimit || !configMapKeyRegexp.test(value)) {
    errs.push(regexError(configMapKeyErrMsg, configMapKeyFmt, 'key.name', 'KEY_NAME', 'key-name'));
  }
  errs.push(...hasChDirPrefix(value));
  return errs;
}

export function isValidPercent(percent: string): string[] {
  return percentRegexp.test(percent) ? [] : [regexError(percentErrMsg, percentFmt, '1%', '93%')];
}

export function isHTTPHeaderName(value: string): string[] {
  return httpHeaderNameRegexp.test(value) ? [] : [regexError(httpHeaderNameErrMsg, httpHeaderNameFmt, 'X-Header-Name')];
}

export function isValidPortNum(port: number): string[] {
  return Number.isInteger(port) && port >= 1 && port <= 65535 ? [] : [inclusiveRangeError(1, 65535)];
}

export function isInRange(value: number, min: number, max: number): string[] {
  return value >= min && value <= max ? [] : [inclusiveRangeError(min, max)];
}

export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (port.length > 15) errs.push(maxLenError(15));
  if (!/^[-a-z0-9]+$/.test(port)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-'))) errs.push('must not begin or end with a hyphen');
  return errs;
}

// ---------------------------------------------------------------- IP addresses

/** Dotted-quad IPv4, as Go's net.ParseIP accepts it (no leading zeros beyond one digit per octet check). */
export function isIPv4(value: string): boolean {
  const parts = value.split('.');
  if (parts.length !== 4) return false;
  return parts.every((p) => /^[0-9]{1,3}$/.test(p) && Number(p) <= 255);
}

export function isIPv6(value: string): boolean {
  if (!value.includes(':')) return false;
  // Embedded IPv4 tail (::ffff:1.2.3.4).
  let v = value;
  const lastColon = v.lastIndexOf(':');
  const tail = v.slice(lastColon + 1);
  let extraGroups = 0;
  if (tail.includes('.')) {
    if (!isIPv4(tail)) return false;
    v = `${v.slice(0, lastColon + 1)}0`;
    extraGroups = 1;
  }
  const doubles = v.split('::').length - 1;
  if (doubles > 1) return false;
  const groupOk = (g: string) => /^[0-9a-fA-F]{1,4}$/.test(g);
  if (doubles === 1) {
    const [head, rest] = v.split('::');
    const hs = head ? head.split(':') : [];
    const rs = rest ? rest.split(':') : [];
    return [...hs, ...rs].every(groupOk) && hs.length + rs.length + extraGroups <= 7;
  }
  const groups = v.split(':');
  return groups.length + extraGroups - 1 === 7 && groups.every(groupOk);
}

export function isIP(value: string): boolean {
  return isIPv4(value) || isIPv6(value);
}

export function isValidIPMessage(value: string): string[] {
  return isIP(value) ? [] : ['must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'];
}

export function isCIDR(value: string): boolean {
  const slash = value.indexOf('/');
  if (slash < 0) return false;
  const ip = value.slice(0, slash);
  const bits = value.slice(slash + 1);
  if (!/^[0-9]{1,3}$/.test(bits)) return false;
  if (isIPv4(ip)) return Number(bits) <= 32;
  if (isIPv6(ip)) return Number(bits) <= 128;
  return false;
}

export function isValidCIDRMessage(value: string): string[] {
  return isCIDR(value) ? [] : ['must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)'];
}

// ---------------------------------------------------------------- object names (ValidateNameFunc)

/** Validates a metadata.name (prefix=false) or a metadata.generateName (prefix=true). */
export type ValidateNameFunc = (name: string, prefix: boolean) => string[];

/** generateName "web-" is checked as "we" + "a": the trailing dash is fine because random characters follow. */
function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith('-') ? `${name.slice(0, -2)}a` : name;
}

export const nameIsDNSSubdomain: ValidateNameFunc = (name, prefix) =>
  isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name);

export const nameIsDNSLabel: ValidateNameFunc = (name, prefix) => isDNS1123Label(prefix ? maskTrailingDash(name) : name);

export const nameIsDNS1035Label: ValidateNameFunc = (name, prefix) =>
  isDNS1035Label(prefix ? maskTrailingDash(name) : name);

/** Names that only need to be a safe URL path segment (RBAC kinds): not "." or "..", no "/" or "%". */
export const validatePathSegmentName: ValidateNameFunc = (name, prefix) => {
  if (!prefix) {
    for (const bad of ['.', '..']) if (name === bad) return [`may not be '${bad}'`];
  }
  const errs: string[] = [];
  for (const bad of ['/', '%']) if (name.includes(bad)) errs.push(`may not contain '${bad}'`);
  return errs;
};

export const validateNamespaceName = nameIsDNSLabel;
export const validateServiceAccountName = nameIsDNSSubdomain;

export const IsNegativeErrorMsg = 'must be greater than or equal to 0';
