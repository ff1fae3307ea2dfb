import { defineConfig } from 'vite';

// The server: one ESM bundle in dist/server; npm packages stay external and load from node_modules.
export default defineConfig({
  build: {
    ssr: 'src/server/main.ts',
    outDir: 'dist/server',
    emptyOutDir: true,
    target: 'node20',
    sourcemap: true,
    rollupOptions: { output: { entryFileNames: 'main.js' } },
  },
});
