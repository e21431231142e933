import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render } from '@testing-library/react';
import { MemoryRouter, useNavigate, type NavigateFunction } from 'react-router-dom';

/**
 * The places kept per history entry (useScrollRestoration.ts). The router's first entry of every document has the
 * same key, so the test loads the hook afresh each time (its kept places are read once per document).
 */
async function mount(path: string, loadType: NavigationTimingType) {
  vi.resetModules();
  const { useScrollRestoration } = await import('./useScrollRestoration');
  vi.spyOn(performance, 'getEntriesByType').mockReturnValue([{ type: loadType } as PerformanceNavigationTiming]);
  let navigate: NavigateFunction | undefined;
  function Page() {
    useScrollRestoration();
    navigate = useNavigate();
    return null;
  }
  const view = render(
    <MemoryRouter initialEntries={[path]}>
      <Page />
    </MemoryRouter>,
  );
  return { ...view, navigate: (to: string | number) => act(() => void navigate!(to as string)) };
}

/** Where the window is scrolled (jsdom does not scroll), and a person's scroll to `top`. */
function scrolledTo(top: number) {
  Object.defineProperty(window, 'scrollY', { value: top, configurable: true, writable: true });
  window.dispatchEvent(new Event('scroll'));
}

const scrolls = () => vi.mocked(window.scrollTo).mock.calls.map(([options]) => (options as ScrollToOptions).top);

beforeEach(() => {
  vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
  scrolledTo(0);
});

afterEach(() => {
  vi.restoreAllMocks();
  window.sessionStorage.clear();
});

describe('useScrollRestoration', () => {
  it('a page opened by its address in the same tab starts at the top, whatever the tab’s first page was scrolled to', async () => {
    // The Settings page, loaded first in the tab, scrolled far down: kept under its entry (before a new document).
    const settings = await mount('/settings', 'navigate');
    scrolledTo(2400);
    window.dispatchEvent(new Event('pagehide'));
    settings.unmount();
    scrolledTo(0);

    // The dashboard typed in the address bar: a new document whose first entry has the same router key.
    const dashboard = await mount('/dashboard', 'navigate');
    expect(scrolls()).not.toContain(2400);
    expect(window.scrollY).toBe(0);
    dashboard.unmount();
  });

  it('a reload of the page and Back within the app return to where it was scrolled', async () => {
    const first = await mount('/settings', 'navigate');
    scrolledTo(1800);
    window.dispatchEvent(new Event('pagehide'));
    first.unmount();
    scrolledTo(0);

    const reloaded = await mount('/settings', 'reload');
    expect(scrolls()).toContain(1800);

    // Another page of the app opens at the top; Back returns to the place.
    scrolledTo(1800);
    vi.mocked(window.scrollTo).mockClear();
    await reloaded.navigate('/calendar');
    expect(scrolls()).toEqual([0]);
    scrolledTo(0);
    await reloaded.navigate(-1);
    expect(scrolls()).toContain(1800);
    reloaded.unmount();
  });
});
