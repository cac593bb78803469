import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * Writes a .br (brotli 11) and a .gz (gzip 9) copy beside every text file of the build over 1 KB, once, at build
 * time: the server sends them as they are (@fastify/static preCompressed, server/plugins/web.ts) instead of
 * compressing the same bytes on every request.
 */
function precompress(): Plugin {
  return {
    name: 'lab-portal:precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      for (const fileName of Object.keys(bundle)) {
        if (!/\.(js|css|html|svg|json|txt)$/.test(fileName)) continue;
        const file = path.join(options.dir!, fileName);
        const content = readFileSync(file);
        if (content.length < 1024) continue;
        const params = { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length };
        writeFileSync(`${file}.br`, brotliCompressSync(content, { params }));
        writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
      }
    },
  };
}

// The web app lives in web/ and builds to dist/web, which server/plugins/web.ts serves (index.html for page loads).
// In development `npm run dev` runs the API on :3000 and `npx vite` serves the app with the API proxied.
export default defineConfig({
  root: 'web',
  plugins: [react(), precompress()],
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    // NOTE: the first page must stay small (at most 200 KB gzip, `npm run bench:first-load`): every route is a lazy
    // chunk (web/app/router.tsx).
    chunkSizeWarningLimit: 600,
    // Every browser the lab runs (Chromium, Edge, Firefox ESR 115+, Safari 17+) preloads modules itself; an older one
    // simply does not preload, and the polyfill would cost every first load.
    modulePreload: { polyfill: false },
    // Fonts stay files, however small: the language button's 2.4 KB face (web/app/global.css) inlined would add 3 KB
    // gzip to the first page's style sheet for Hindi readers too, who never draw it.
    assetsInlineLimit: (file) => (file.endsWith('.woff2') ? false : undefined),
    rollupOptions: {
      output: {
        // Everything the entry imports statically loads on every first page anyway: one chunk compresses better
        // than the dozens of small shared ones the automatic splitting would make of it.
        codeSplitting: { groups: [{ name: 'shell', tags: ['$initial'] }] },
      },
    },
  },
  server: {
    proxy: {
      '/api': 'http://localhost:3000',
      '/uploads': 'http://localhost:3000',
      // /admin/* is both a screen and an API path (spec §7): page loads get the app, API calls go to the server.
      '/admin': {
        target: 'http://localhost:3000',
        bypass: (req) => (req.headers.accept?.includes('text/html') ? '/index.html' : undefined),
      },
    },
  },
});
