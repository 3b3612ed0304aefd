// monaco-yaml's language server, bundled by Vite as its own worker (importing the package's worker directly
// breaks under Vite; see monaco-yaml's README).
import 'monaco-yaml/yaml.worker.js';
