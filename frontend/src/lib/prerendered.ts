/**
 * Marks the welcome page rendered into index.html at build time (src/prerender.tsx); index.html hides
 * it unless public/boot.js shows it, and main.tsx tells the app it is on screen.
 */
export const PRERENDERED_ATTRIBUTE = 'data-prerendered';
