import { fileURLToPath, URL } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  define: { __BRAND__: '{}', __MESSAGES_PATH__: JSON.stringify('/assets/messages'), __BUILD_DATE__: JSON.stringify('2026-01-01') },
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'scripts/**/*.test.mjs'],
    environment: 'node',
  },
});
