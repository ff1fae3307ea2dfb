import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const apiPort = Number(process.env.PORT ?? 3000);

/**
 * Writes a Brotli and a gzip copy beside every script, stylesheet and page of the build; the server
 * sends them to browsers that accept them (@fastify/static `preCompressed`). The initial JavaScript
 * and CSS travel at about a quarter of their size, compressed once here rather than per request.
 */
function precompress(): Plugin {
  return {
    name: 'inmoflujo:precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      for (const fileName of Object.keys(bundle)) {
        if (!/\.(js|css|html)$/.test(fileName)) continue;
        const path = join(options.dir!, fileName);
        const content = readFileSync(path);
        if (content.length < 1024) continue;
        writeFileSync(
          `${path}.br`,
          brotliCompressSync(content, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: 11,
              [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
            },
          }),
        );
        writeFileSync(`${path}.gz`, gzipSync(content, { level: 9 }));
      }
    },
  };
}

// The client: built into dist/client and served by the API server in production.
export default defineConfig({
  root: 'src/client',
  publicDir: 'public',
  plugins: [react(), precompress()],
  build: {
    outDir: '../../dist/client',
    emptyOutDir: true,
    sourcemap: true,
    // 1.7 MB: the PDF preview frame's own bundle (PDF.js), fetched only when a PDF is previewed.
    chunkSizeWarningLimit: 1700,
    rollupOptions: {
      // The app, and the frame that draws a PDF preview in its own opaque origin (decision 0037).
      input: {
        index: join(import.meta.dirname, 'src/client/index.html'),
        'pdf-preview': join(import.meta.dirname, 'src/client/pdf-preview.html'),
      },
      output: {
        // Left alone, the bundler hoists modules shared by several lazy screens (floating-ui for
        // selects, popovers, date pickers) into the entry chunk that every screen loads first. They
        // get their own chunk, fetched with the first screen that needs them (decision 0005).
        codeSplitting: {
          includeDependenciesRecursively: false,
          groups: [{ name: 'floating-ui', test: /node_modules[\\/]@floating-ui[\\/]/ }],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': { target: `http://127.0.0.1:${apiPort}`, changeOrigin: false } },
  },
});
