import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const API = 'http://localhost:8080';
// Paths the Node server answers; in development Vite forwards them so the console stays same-origin.
const proxied = ['/console-api', '/v3', '/v1', '/entities', '/audiences', '/openapi.json', '/api-reference'];

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
  server: {
    port: 5173,
    strictPort: true,
    proxy: Object.fromEntries(proxied.map((path) => [path, { target: API, changeOrigin: false }])),
  },
});
