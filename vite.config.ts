import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The web app lives in web/ and builds to dist/web, which server/plugins/web.ts serves (index.html for page loads).
// In development `npm run dev` runs the API on :3000 and `npx vite` serves the app with the API proxied.
export default defineConfig({
  root: 'web',
  plugins: [react()],
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    // NOTE: the first page must stay small: every route is a lazy chunk (web/app/router.tsx).
    chunkSizeWarningLimit: 600,
  },
  server: {
    proxy: {
      '/api': 'http://localhost:3000',
      '/uploads': 'http://localhost:3000',
    },
  },
});
