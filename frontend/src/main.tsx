import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import App, { preloadPage } from './App';
import { AppProviders, createQueryClient } from './AppProviders';
import { applyTheme, readStoredTheme, resolveTheme } from './hooks/useTheme';
import './styles/base.css';

// Apply the stored theme before the first render so a dark choice never flashes light.
applyTheme(resolveTheme(readStoredTheme()));

preloadPage(window.location.pathname);

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');

createRoot(container).render(
  <StrictMode>
    <AppProviders queryClient={createQueryClient()}>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </AppProviders>
  </StrictMode>,
);
