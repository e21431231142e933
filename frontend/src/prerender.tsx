import { renderToStaticMarkup } from 'react-dom/server';
import { PRERENDERED_ATTRIBUTE } from './lib/prerendered';
import { WelcomeView } from './pages/Welcome';

/**
 * The welcome page's markup for index.html (vite-prerender.ts, at build time): the same component React
 * renders, with both variants of the logo (index.html shows the theme's); the app takes its place on its
 * first render (src/App.tsx).
 */
export function renderWelcome(): string {
  const noop = () => undefined;
  return renderToStaticMarkup(<WelcomeView theme="both" onOpen={noop} onPrefetch={noop} />).replace(
    /^<div class="welcome"/,
    `<div class="welcome" ${PRERENDERED_ATTRIBUTE}=""`,
  );
}
