import { createServer, type Plugin } from 'vite';

const ROOT_ELEMENT = '<div id="root"></div>';

/**
 * Renders the welcome page into index.html's #root at build time (src/prerender.tsx), through a
 * short-lived Vite server in SSR mode, so signed-out visitors see it before the app's JavaScript
 * has loaded; public/boot.js decides whether it is shown (index.html).
 */
export function prerenderWelcome(define: Record<string, string>): Plugin {
  let root = '';
  return {
    name: 'prerender-welcome',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    transformIndexHtml: {
      order: 'pre',
      async handler(html) {
        if (!html.includes(ROOT_ELEMENT)) throw new Error(`index.html has no ${ROOT_ELEMENT} to prerender into`);
        const server = await createServer({
          configFile: false,
          root,
          define,
          logLevel: 'error',
          appType: 'custom',
          server: { middlewareMode: true, hmr: false, ws: false },
        });
        try {
          const { renderWelcome } = (await server.ssrLoadModule(
            '/src/prerender.tsx',
          )) as typeof import('./src/prerender');
          return html.replace(ROOT_ELEMENT, `<div id="root">${renderWelcome()}</div>`);
        } finally {
          await server.close();
        }
      },
    },
  };
}
