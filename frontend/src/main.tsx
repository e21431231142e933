import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import App, { preloadPage } from './App';
import { AppProviders, createQueryClient } from './AppProviders';
import { startPageCalls } from './api/startCalls';
import { sessionQuery } from './hooks/useSession';
import { applyTheme, readStoredTheme, resolveTheme } from './hooks/useTheme';
import { PRERENDERED_ATTRIBUTE } from './lib/prerendered';
import './styles/base.css';

// Apply the stored theme before the first render so a dark choice never flashes light.
applyTheme(resolveTheme(readStoredTheme()));

// The session check and the page's data first, then its code: on a slow network each request waits for a free
// connection, and the page can show nothing without the session's answer (api/startCalls.ts).
const queryClient = createQueryClient();
void queryClient.prefetchQuery(sessionQuery);
startPageCalls(window.location.pathname);
preloadPage(window.location.pathname);

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');

// public/boot.js showed the welcome page prerendered into index.html (src/prerender.tsx).
const welcomeShown =
  document.documentElement.dataset.welcome === 'shown' &&
  container.firstElementChild?.hasAttribute(PRERENDERED_ATTRIBUTE) === true;

createRoot(container).render(
  <StrictMode>
    <AppProviders queryClient={queryClient}>
      <BrowserRouter>
        <App welcomeShown={welcomeShown} />
      </BrowserRouter>
    </AppProviders>
  </StrictMode>,
);
