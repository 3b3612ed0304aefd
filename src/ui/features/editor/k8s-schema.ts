// One JSON Schema for every manifest document: each built-in kind's generated definition, chosen by the
// document's apiVersion and kind (draft-07 if/then), so the YAML language server validates, completes and
// documents exactly what the API server decodes.
import { allDefinitions, definitionRefPrefix, schemaKinds } from '../../../shared/api/schemas/index';

export interface KubernetesSchema {
  definitions: Readonly<Record<string, unknown>>;
  type: 'object';
  properties: Record<string, unknown>;
  required: string[];
  allOf: unknown[];
}

export function kubernetesSchema(): KubernetesSchema {
  const kinds = schemaKinds();
  const apiVersions = [...new Set(kinds.map((k) => (k.group ? `${k.group}/${k.version}` : k.version)))].sort();
  const kindNames = [...new Set(kinds.map((k) => k.kind))].sort();
  return {
    definitions: allDefinitions(),
    type: 'object',
    properties: {
      apiVersion: { type: 'string', description: 'APIVersion defines the versioned schema of this representation of an object.', enum: apiVersions },
      kind: { type: 'string', description: 'Kind is a string value representing the REST resource this object represents.', enum: kindNames },
    },
    required: ['apiVersion', 'kind'],
    allOf: kinds.map((k) => ({
      if: {
        properties: { apiVersion: { const: k.group ? `${k.group}/${k.version}` : k.version }, kind: { const: k.kind } },
        required: ['apiVersion', 'kind'],
      },
      then: { $ref: `${definitionRefPrefix}${k.definition}` },
    })),
  };
}
