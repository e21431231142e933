import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './vite-precompress.js';
import { prerenderWelcome } from './vite-prerender.js';
// A relative import: Vite bundles it into the config (the workspace package is TypeScript source).
import { routes } from '../shared/src/api/routes.js';

const root = fileURLToPath(new URL('.', import.meta.url));
const port = Number(process.env.PORT ?? 3000);
const apiPort = Number(process.env.API_PORT ?? 3001);
// HOST (README, Configuration): `npm run dev` listens there, and so does its API (functions/src/local/main.ts,
// which warns); unset, both stay on this machine. A wildcard HOST still reaches the API on loopback.
const host = process.env.HOST?.trim() || undefined;
const apiHost = !host || host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;

/**
 * Each route's method and path, from the route table (shared/src/api/routes.ts), as the constant
 * `__API_ROUTES__` that the SPA's client (src/api/client.ts) builds its calls from. The table itself
 * carries every route's zod schemas: importing it would put zod into the welcome page's JavaScript
 * (docs/testing.md, Performance budgets), so only the addresses are compiled in.
 */
export const apiRoutesDefine = {
  __API_ROUTES__: JSON.stringify(Object.fromEntries(routes.map(({ id, method, path }) => [id, { method, path }]))),
};

export default defineConfig({
  root,
  plugins: [react(), prerenderWelcome(apiRoutesDefine), precompress()],
  define: apiRoutesDefine,
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    rolldownOptions: {
      treeshake: {
        // @app/shared is plain source without a package "sideEffects" flag: its modules only declare
        // constants, schemas and functions, so a chunk that needs `Messages` does not have to carry
        // the zod schemas (docs/testing.md, Performance budgets: the welcome page's JavaScript stays small).
        moduleSideEffects: (id: string) => (/[\\/]shared[\\/]src[\\/]/.test(id) ? false : undefined),
      },
    },
  },
  server: {
    port,
    host,
    strictPort: true,
    proxy: {
      // Keep the browser's Host header so the API's same-origin check sees the page's origin.
      '/api': { target: `http://${apiHost}:${apiPort}`, changeOrigin: false },
    },
  },
  preview: { port },
});
