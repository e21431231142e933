/* global document, window */
// Runs before the first paint: a classic script in index.html's <head> (the CSP allows no inline
// script, functions/src/http/security-headers.ts). Kept in step with src/ by src/test/boot.test.ts.
(function () {
  // zod builds its object parsers with `new Function` unless told not to, and probes for it with a
  // caught `new Function('')` that the CSP still reports as an eval violation. Its config lives on this
  // global (zod/v4/core/core.js) and is read when the first schema is built, so it is set before any
  // module of the app loads: every zod schema of the SPA runs jitless, as the CSP makes it anyway.
  var zodConfig = (window.__zod_globalConfig = window.__zod_globalConfig || {});
  zodConfig.jitless = true;

  var root = document.documentElement;
  var stored = null;
  var signedIn = false;
  try {
    stored = window.localStorage.getItem('app-theme'); // THEME_STORAGE_KEY, src/hooks/useTheme.tsx
    signedIn = window.localStorage.getItem('app-signed-in') === '1'; // SIGNED_IN_MARK, src/App.tsx
  } catch (e) {
    // Storage unavailable: the system theme, and the welcome page is shown.
  }
  // applyTheme(resolveTheme(readStoredTheme())) of src/hooks/useTheme.tsx, so a dark choice never flashes light.
  var theme =
    stored === 'light' || stored === 'dark'
      ? stored
      : window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches
        ? 'dark'
        : 'light';
  root.dataset.theme = theme;
  root.style.colorScheme = theme;
  // The welcome page prerendered into index.html is shown where a signed-out visitor sees it, unless
  // this browser's last session was signed in: a signed-in user never sees it flash before the app.
  var path = window.location.pathname;
  root.dataset.welcome = !signedIn && (path === '/' || path === '/welcome') ? 'shown' : 'hidden';
})();
