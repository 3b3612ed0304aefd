import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompressedAssets } from './scripts/precompressed-assets';

export default defineConfig({
  plugins: [react(), precompressedAssets()],
  // The cluster runs in a module worker (new Worker(new URL(...), { type: 'module' })).
  worker: { format: 'es' },
  build: { target: 'es2022', sourcemap: true },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
  server: { host: '127.0.0.1' },
});
