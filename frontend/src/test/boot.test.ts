import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { SIGNED_IN_MARK } from '../App';
import { readStoredTheme, resolveTheme, THEME_STORAGE_KEY } from '../hooks/useTheme';

/** public/boot.js, as index.html runs it before the first paint. */
const boot = readFileSync(join(__dirname, '../../public/boot.js'), 'utf8');
const runBoot = () => new Function(boot)();

function setSystemDark(dark: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: dark && query === '(prefers-color-scheme: dark)',
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
}

afterEach(() => {
  window.history.replaceState(null, '', '/');
  delete document.documentElement.dataset.welcome;
});

it.each([
  [null, false],
  [null, true],
  ['system', true],
  ['light', true],
  ['dark', false],
  ['nonsense', true],
])('applies the theme of src/hooks/useTheme.tsx before the app runs (stored %s, system dark %s)', (stored, dark) => {
  setSystemDark(dark);
  if (stored) window.localStorage.setItem(THEME_STORAGE_KEY, stored);
  runBoot();
  const expected = resolveTheme(readStoredTheme());
  expect(document.documentElement.dataset.theme).toBe(expected);
  expect(document.documentElement.style.colorScheme).toBe(expected);
});

it.each([
  ['/', false, 'shown'],
  ['/welcome', false, 'shown'],
  ['/', true, 'hidden'],
  ['/welcome', true, 'hidden'],
  ['/dashboard', false, 'hidden'],
  ['/approve', false, 'hidden'],
])('the prerendered welcome page at %s, signed in last time: %s, is %s', (path, signedInBefore, expected) => {
  setSystemDark(false);
  window.history.replaceState(null, '', path);
  if (signedInBefore) window.localStorage.setItem(SIGNED_IN_MARK, '1');
  runBoot();
  expect(document.documentElement.dataset.welcome).toBe(expected);
});

it("turns zod's code generation off in the config zod itself reads, before the app builds a schema", () => {
  setSystemDark(false);
  const before = z.config().jitless;
  try {
    runBoot();
    expect(z.config().jitless).toBe(true);
  } finally {
    z.config({ jitless: before });
  }
});
