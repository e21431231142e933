import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import App, { preloadPage } from './App';
import { AppProviders, createQueryClient } from './AppProviders';
import { applyTheme, readStoredTheme, resolveTheme } from './hooks/useTheme';
import { PRERENDERED_ATTRIBUTE } from './lib/prerendered';
import './styles/base.css';

// Apply the stored theme before the first render so a dark choice never flashes light.
applyTheme(resolveTheme(readStoredTheme()));

preloadPage(window.location.pathname);

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');

// public/boot.js showed the welcome page prerendered into index.html (src/prerender.tsx).
const welcomeShown =
  document.documentElement.dataset.welcome === 'shown' &&
  container.firstElementChild?.hasAttribute(PRERENDERED_ATTRIBUTE) === true;

createRoot(container).render(
  <StrictMode>
    <AppProviders queryClient={createQueryClient()}>
      <BrowserRouter>
        <App welcomeShown={welcomeShown} />
      </BrowserRouter>
    </AppProviders>
  </StrictMode>,
);
