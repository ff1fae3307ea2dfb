import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiPort = Number(process.env.PORT ?? 3000);

// The client: built into dist/client and served by the API server in production.
export default defineConfig({
  root: 'src/client',
  publicDir: 'public',
  plugins: [react()],
  build: {
    outDir: '../../dist/client',
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 700,
    rollupOptions: {
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
