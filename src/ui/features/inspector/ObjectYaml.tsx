// An object printed as kubectl get -o yaml would print it.
import { useMemo } from 'react';
import type { KubeObject } from '../../../shared/api/types';
import { toYaml } from '../../../shared/lib/yaml';

export default function ObjectYaml({ object }: { object: KubeObject }) {
  const text = useMemo(() => toYaml(object), [object]);
  return (
    <pre className="yaml" aria-label={`YAML of ${object.kind.toLowerCase()}/${object.metadata.name}`} tabIndex={0}>
      {text}
    </pre>
  );
}
