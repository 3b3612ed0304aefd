// kubectl's YAML (go-yaml v2 through sigs.k8s.io/yaml). The expected documents were printed by the real kubectl
// v1.32 for the same objects.
import { describe, expect, it } from 'vitest';
import { goFloatG, kubectlYaml, yamlKeyLess } from './yaml';

const text = (...lines: string[]): string => `${lines.join('\n')}\n`;

describe('kubectlYaml', () => {
  it('quotes, folds and orders like kubectl -o yaml (checked against kubectl v1.32)', () => {
    const configMap = {
      "apiVersion": "v1",
      "data": {
        "indented": "  starts with spaces\nnext\n",
        "script": "#!/bin/sh\necho hi\n\nexit 0\n",
        "two": "ends with two\n\n"
      },
      "kind": "ConfigMap",
      "metadata": {
        "annotations": {
          "Zeta": "z",
          "a-dash": "d",
          "aB": "b",
          "a_under": "u",
          "bang": "!important",
          "base60": "1:30",
          "colon": "a:b",
          "colon2": "a: b",
          "dash": "- item",
          "dq_long": "quote \" and a very long string that needs folding because it is more than eighty columns wide ok",
          "dquote": "say \"hi\"",
          "empty": "",
          "float": "1.5",
          "hash": "a #b",
          "lead": " leading space",
          "long": "this is a very long annotation value that goes well beyond eighty columns so it must fold somewhere in the middle of it",
          "long_word": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa bbb",
          "multi": "line one\nline two\n",
          "multi2": "no trailing newline\nsecond",
          "num": "123",
          "octal": "0755",
          "pct": "%x",
          "port10": "x",
          "port9": "y",
          "q": "?",
          "quoted": "it's: a 'quoted' # value that is long enough to need folding past the eighty column limit, really long",
          "star": "*star",
          "tab": "a\tb",
          "tilde": "~",
          "trailsp": "line one  \nline two",
          "true": "yes",
          "ts": "2024-01-01",
          "unicode": "héllo wörld"
        },
        "name": "tricky",
        "namespace": "default"
      }
    };
    expect(kubectlYaml(configMap)).toBe(
      text(
        'apiVersion: v1',
        'data:',
        '  indented: |2',
        '      starts with spaces',
        '    next',
        '  script: |',
        '    #!/bin/sh',
        '    echo hi',
        '',
        '    exit 0',
        '  two: |+',
        '    ends with two',
        '',
        'kind: ConfigMap',
        'metadata:',
        '  annotations:',
        '    Zeta: z',
        '    a-dash: d',
        '    a_under: u',
        '    aB: b',
        '    bang: \'!important\'',
        '    base60: \"1:30\"',
        '    colon: a:b',
        '    colon2: \'a: b\'',
        '    dash: \'- item\'',
        '    dq_long: quote \" and a very long string that needs folding because it is more',
        '      than eighty columns wide ok',
        '    dquote: say \"hi\"',
        '    empty: \"\"',
        '    float: \"1.5\"',
        '    hash: \'a #b\'',
        '    lead: \' leading space\'',
        '    long: this is a very long annotation value that goes well beyond eighty columns',
        '      so it must fold somewhere in the middle of it',
        '    long_word: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
        '      bbb',
        '    multi: |',
        '      line one',
        '      line two',
        '    multi2: |-',
        '      no trailing newline',
        '      second',
        '    num: \"123\"',
        '    octal: \"0755\"',
        '    pct: \'%x\'',
        '    port9: \"y\"',
        '    port10: x',
        '    q: \'?\'',
        '    quoted: \'it\'\'s: a \'\'quoted\'\' # value that is long enough to need folding past',
        '      the eighty column limit, really long\'',
        '    star: \'*star\'',
        '    tab: \"a\\tb\"',
        '    tilde: \"~\"',
        '    trailsp: \"line one  \\nline two\"',
        '    \"true\": \"yes\"',
        '    ts: \"2024-01-01\"',
        '    unicode: héllo wörld',
        '  name: tricky',
        '  namespace: default'
      ),
    );
  });

  it('writes empty collections in flow style, nested sequences inline and null', () => {
    expect(kubectlYaml({ a: {}, b: [], c: [[1, 2], ['x']], d: null, e: [{ f: 1, g: [{ h: true }] }] })).toBe(
      text('a: {}', 'b: []', 'c:', '- - 1', '  - 2', '- - x', 'd: null', 'e:', '- f: 1', '  g:', '  - h: true'),
    );
  });

  it('quotes strings go-yaml would read as another type, and leaves the rest plain', () => {
    const doc = kubectlYaml({ list: ['yes', 'No', 'on', '~', 'null', '', '123', '0x1F', '1e3', '.5', '1_000', '2026-01-01T00:00:00Z', '12:30', 'v1.32.0', 'nginx:1.27', '-x', '- x', 'a:b'] });
    expect(doc).toBe(
      text('list:', '- "yes"', '- "No"', '- "on"', '- "~"', '- "null"', '- ""', '- "123"', '- "0x1F"', '- "1e3"', '- ".5"', '- "1_000"', '- "2026-01-01T00:00:00Z"', '- "12:30"', '- v1.32.0', '- nginx:1.27', '- -x', "- '- x'", '- a:b'),
    );
  });

  it('prints numbers as go-yaml does', () => {
    expect(kubectlYaml({ i: 3, f: 0.5, big: 1.5e-7, neg: -2 })).toBe(text('big: 1.5e-07', 'f: 0.5', 'i: 3', 'neg: -2'));
    expect(goFloatG(123456.5)).toBe('123456.5');
    expect(goFloatG(1e21 + 0.5)).toBe('1e+21');
  });

  it('orders keys with digit runs compared as numbers and other characters before letters', () => {
    expect(yamlKeyLess('port9', 'port10')).toBe(true);
    expect(yamlKeyLess('a_b', 'aB')).toBe(true);
    expect(yamlKeyLess('Zeta', 'a')).toBe(true);
    expect(yamlKeyLess('app', 'app.kubernetes.io/name')).toBe(true);
  });
});
