import { describe, expect, it } from 'vitest';
import { executeJsonPath, explainPathNodes, findResults, goSprint, goSyntax, JsonPathError, parseJsonPath } from './jsonpath';

const list = {
  apiVersion: 'v1',
  kind: 'List',
  items: [
    {
      metadata: { name: 'web', labels: { app: 'web', 'app.kubernetes.io/name': 'shop' } },
      spec: { nodeName: 'node-1', containers: [{ name: 'web', image: 'nginx:1.27', ports: [{ containerPort: 80 }, { containerPort: 443 }] }, { name: 'log', image: 'busybox' }] },
      status: { phase: 'Running', podIP: '10.244.1.2' },
    },
    {
      metadata: { name: 'db', labels: { app: 'db' } },
      spec: { containers: [{ name: 'db', image: 'postgres:16', ports: [{ containerPort: 5432 }] }] },
      status: { phase: 'Pending' },
    },
  ],
};

const run = (template: string, data: unknown = list, options = { allowMissingKeys: true }): string => executeJsonPath(parseJsonPath(template), data, options);

describe('JSONPath (client-go util/jsonpath)', () => {
  it('reads fields, wildcards and indexes; several values are joined with spaces', () => {
    expect(run('{.kind}')).toBe('List');
    expect(run('{.items[*].metadata.name}')).toBe('web db');
    expect(run('{.items[0].spec.containers[*].image}')).toBe('nginx:1.27 busybox');
    expect(run('{.items[-1].metadata.name}')).toBe('db');
    expect(run('{.items[0].spec.containers[0].ports[1:].containerPort}')).toBe('443');
    expect(run('{.items[*].spec.containers[0].ports[0].containerPort}')).toBe('80 5432');
  });

  it('mixes text and actions, and unquotes quoted text', () => {
    expect(run('pod {.items[0].metadata.name} is {.items[0].status.phase}{"\\n"}')).toBe('pod web is Running\n');
    expect(run("{.items[0].metadata.name}{'\\t'}{.items[1].metadata.name}")).toBe('web\tdb');
  });

  it('ranges over values, nested ranges included', () => {
    expect(run('{range .items[*]}{.metadata.name}{"\\t"}{.status.phase}{"\\n"}{end}')).toBe('web\tRunning\ndb\tPending\n');
    expect(run('{range .items[*]}[{range .spec.containers[*]}{.name},{end}]{end}')).toBe('[web,log,][db,]');
  });

  it('filters with ==, !=, comparisons and existence', () => {
    expect(run('{.items[?(@.status.phase=="Running")].metadata.name}')).toBe('web');
    expect(run("{.items[?(@.status.phase!='Running')].metadata.name}")).toBe('db');
    expect(run('{.items[0].spec.containers[0].ports[?(@.containerPort>80)].containerPort}')).toBe('443');
    expect(run('{.items[?(@.spec.nodeName)].metadata.name}')).toBe('web');
  });

  it('unions, quoted keys, escaped dots and recursive descent', () => {
    expect(run('{.items[0].metadata.labels.app\\.kubernetes\\.io/name}')).toBe('shop');
    expect(run("{.items[0].metadata['name']}")).toBe('web');
    expect(run('{.items[0,1].metadata.name}')).toBe('web db');
    expect(run("{.items[0].status['phase','podIP']}")).toBe('Running 10.244.1.2');
    expect(run('{..image}')).toBe('nginx:1.27 busybox postgres:16');
  });

  it('prints maps and slices as compact JSON with sorted keys, and as one indented array with asJson', () => {
    expect(run('{.items[0].metadata.labels}')).toBe('{"app":"web","app.kubernetes.io/name":"shop"}');
    expect(run('{.items[1].spec.containers[0].ports}')).toBe('[{"containerPort":5432}]');
    expect(executeJsonPath(parseJsonPath('{.items[*].metadata.name}'), list, { asJson: true })).toBe('[\n    "web",\n    "db"\n]\n');
  });

  it('reports a missing key unless missing keys are allowed; indexes out of range always fail', () => {
    expect(run('{.items[0].missing}')).toBe('');
    expect(() => run('{.items[0].missing}', list, { allowMissingKeys: false })).toThrow(new JsonPathError('missing is not found'));
    expect(() => run('{.items[5].metadata.name}')).toThrow('array index out of bounds: index 5, length 2');
    expect(() => run('{.kind[0]}')).toThrow('string is not array or slice');
  });

  it('returns one result list per action', () => {
    expect(findResults(parseJsonPath('{.kind} {.items[*].metadata.name}'), list)).toEqual([['List'], [' '], ['web', 'db']]);
  });

  it('fails to parse like client-go', () => {
    expect(() => parseJsonPath('{.items[0}')).toThrow('unterminated array');
    expect(() => parseJsonPath('{.items')).toThrow('unclosed action');
    expect(() => parseJsonPath('{#}')).toThrow("unrecognized character in action: U+0023 '#'");
    expect(() => parseJsonPath('{.items[?(@.a=="b")}')).toThrow('unclosed array expect ]');
    expect(() => parseJsonPath('{.items[?(@.a=="b"}')).toThrow('unterminated filter');
    expect(() => run('{end}')).toThrow('not in range, nothing to end');
  });
});

describe('Go formatting helpers', () => {
  it('prints values as fmt.Sprint and %#v do for unstructured objects', () => {
    expect(goSprint({ b: 1, a: ['x', true] })).toBe('map[a:[x true] b:1]');
    expect(goSprint(null)).toBe('<nil>');
    expect(goSyntax({ kind: 'List', items: [], n: null })).toBe('map[string]interface {}{"items":[]interface {}{}, "kind":"List", "n":interface {}(nil)}');
  });

  it("splits kubectl explain's field paths", () => {
    expect(explainPathNodes('pods.spec.containers')).toEqual(['pods', 'spec', 'containers']);
    expect(explainPathNodes('pods.spec.')).toEqual(['pods', 'spec']);
    expect(explainPathNodes('pods.spec[0]')).toEqual(['pods', 'spec', null]);
  });
});
