import { fileURLToPath, URL } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// https://vite.dev/config/
export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  build: {
    outDir: 'dist',
    // No inline data: URLs, so a strict Content-Security-Policy needs no exception.
    assetsInlineLimit: 0,
  },
  server: {
    // `npm run dev` proxies the gRPC-web calls to a gateway running on :8080.
    proxy: { '/logistics.v1.': 'http://127.0.0.1:8080' },
  },
});
