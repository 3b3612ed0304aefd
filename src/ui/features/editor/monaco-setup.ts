// Monaco with YAML only (editor.all brings completion, hover and markers; no other languages), its workers
// built by Vite, and monaco-yaml fed the Kubernetes schema. Imported only through the lazy MonacoEditor chunk.
import 'monaco-editor/esm/vs/editor/editor.all.js';
import 'monaco-editor/esm/vs/basic-languages/yaml/yaml.contribution.js';
import * as monaco from 'monaco-editor/esm/vs/editor/editor.api.js';
import EditorWorker from 'monaco-editor/esm/vs/editor/editor.worker.js?worker';
import { configureMonacoYaml } from 'monaco-yaml';
import { kubernetesSchema } from './k8s-schema';
import YamlWorker from './yaml.worker.ts?worker';

export const manifestModelUri = 'inmemory://kubeplay/manifest.yaml';

let configured = false;

interface LegacyWorkerOptions {
  worker?: Worker | Promise<Worker>;
  label?: string;
  moduleId?: string;
  createData?: unknown;
  host?: unknown;
  keepIdleModels?: boolean;
}

/**
 * monaco-yaml asks for its worker by label (the pre-0.54 createWebWorker options); editor.api's createWebWorker
 * wants the Worker itself. editor.main bridges the two; we import editor.api alone (no other languages), so the
 * bridge is here: start the worker by label and hand it its create data first, as editor.main does.
 */
function patchCreateWebWorker(): void {
  const api = monaco.editor as unknown as { createWebWorker(opts: LegacyWorkerOptions): unknown };
  const original = api.createWebWorker.bind(api);
  api.createWebWorker = (opts) => {
    if (opts.worker !== undefined) return original(opts);
    const worker = label(opts.label ?? 'monaco-editor-worker');
    worker.postMessage('ignore');
    worker.postMessage(opts.createData);
    return original({ worker, host: opts.host, keepIdleModels: opts.keepIdleModels });
  };
}

function label(name: string): Worker {
  return name === 'yaml' ? new YamlWorker() : new EditorWorker();
}

export function setUpMonaco(): typeof monaco {
  if (configured) return monaco;
  configured = true;
  (globalThis as unknown as { MonacoEnvironment: unknown }).MonacoEnvironment = {
    getWorker: (_moduleId: string, name: string) => label(name),
  };
  patchCreateWebWorker();
  configureMonacoYaml(monaco, {
    enableSchemaRequest: false,
    validate: true,
    completion: true,
    hover: true,
    schemas: [{ uri: 'inmemory://kubeplay/kubernetes.schema.json', fileMatch: [manifestModelUri], schema: kubernetesSchema() as never }],
  });
  return monaco;
}
