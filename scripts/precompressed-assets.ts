// A Vite plugin for the production build and `vite preview` (used by the e2e tests and the page benchmarks).
import { createReadStream, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join, resolve, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

const compressible: Record<string, string> = {
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.ttf': 'font/ttf',
};

/**
 * Static hosts serve the build's scripts compressed ahead of time; `vite preview` gzips every response on the fly
 * instead, which for the 2.4 MB cluster worker and the 4.5 MB Monaco chunk costs the single-threaded preview server
 * hundreds of milliseconds per page load (benchmark 5 and the e2e tests run against it). So the build writes a
 * .gz beside each asset (gzip -9, once) and the preview server sends those, as nginx's gzip_static would.
 */
export function precompressedAssets(): Plugin {
  let outDir = 'dist';
  return {
    name: 'kubeplay:precompressed-assets',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    writeBundle(_options, bundle) {
      for (const file of Object.keys(bundle)) {
        if (!(extname(file) in compressible)) continue;
        const path = join(outDir, file);
        writeFileSync(`${path}.gz`, gzipSync(readFileSync(path), { level: 9 }));
      }
    },
    configurePreviewServer(server) {
      server.middlewares.use((req, res, next) => {
        const pathname = decodeURIComponent((req.url ?? '').split('?')[0]);
        const type = compressible[extname(pathname)];
        if (!type || !/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? '')) || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
        const file = resolve(outDir, `.${pathname}.gz`);
        if (!file.startsWith(outDir + sep)) return next();
        let size: number;
        let mtime: number;
        try {
          ({ size, mtimeMs: mtime } = statSync(file));
        } catch {
          return next();
        }
        const etag = `W/"gz-${size}-${Math.floor(mtime)}"`;
        res.setHeader('Vary', 'Accept-Encoding');
        res.setHeader('Cache-Control', 'no-cache');
        res.setHeader('ETag', etag);
        if (req.headers['if-none-match'] === etag) {
          res.statusCode = 304;
          res.end();
          return;
        }
        res.setHeader('Content-Type', type);
        res.setHeader('Content-Encoding', 'gzip');
        res.setHeader('Content-Length', String(size));
        if (req.method === 'HEAD') {
          res.end();
          return;
        }
        createReadStream(file).pipe(res);
      });
    },
  };
}
