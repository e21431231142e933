import { lazy, Suspense, useState, type ReactNode } from 'react';
import { Logo } from '../components/Logo';
import { useTheme, type EffectiveTheme } from '../hooks/useTheme';
import type { AuthMode } from '../components/AuthModal';
import '../styles/welcome.css';

// The modal (and the validation schemas it brings) loads on first use; hovering or focusing a
// button starts the download early so the modal opens at once.
const loadAuthModal = () => import('../components/AuthModal');
const AuthModal = lazy(() => loadAuthModal().then((module) => ({ default: module.AuthModal })));

const FEATURES = [
  {
    title: 'Draft with AI',
    text: 'Turn a title and a topic into a blog article and a LinkedIn post, then refine them by hand or with an edit request.',
  },
  {
    title: 'Schedule and approve',
    text: 'Pick a time per channel. Content is generated on schedule and sent to you for approval.',
  },
  {
    title: 'Publish everywhere',
    text: 'Publish to WordPress and LinkedIn, import ideas from Google Sheets and track results on a dashboard.',
  },
];

interface WelcomeViewProps {
  /** `both`: the two variants of the logo, for index.html, where CSS shows the one of the theme. */
  theme: EffectiveTheme | 'both';
  onOpen: (mode: AuthMode) => void;
  /** Starts loading the sign-in modal (on hover or focus of its buttons). */
  onPrefetch: () => void;
  /** The sign-in modal, when open. */
  children?: ReactNode;
}

/**
 * The page's markup, without state: rendered by Welcome below and, at build time, into index.html
 * (src/prerender.tsx), so that its largest paint does not wait for the app's JavaScript.
 */
export function WelcomeView({ theme, onOpen, onPrefetch, children }: WelcomeViewProps) {
  return (
    <div className="welcome">
      <div className="welcome__glow" aria-hidden="true" />
      <main className="welcome__main">
        <section className="welcome-card" aria-labelledby="welcome-title">
          {theme === 'both' ? (
            <>
              <Logo variant="light" className="welcome-card__logo" />
              <Logo variant="dark" className="welcome-card__logo" />
            </>
          ) : (
            <Logo variant={theme} className="welcome-card__logo" />
          )}
          <p className="welcome-card__eyebrow">Content automation</p>
          <h1 id="welcome-title" className="welcome-card__title">
            Create, schedule and publish content across every channel
          </h1>
          <p className="welcome-card__lead">
            A content automation tool for creating, scheduling and publishing content across channels: draft articles
            and social posts, approve them, and let them go out on time.
          </p>
          <div className="welcome-card__actions">
            <button
              type="button"
              className="btn btn--primary btn--lg"
              onClick={() => onOpen('login')}
              onPointerEnter={onPrefetch}
              onFocus={onPrefetch}
            >
              Login
            </button>
            <button
              type="button"
              className="btn btn--secondary btn--lg"
              onClick={() => onOpen('register')}
              onPointerEnter={onPrefetch}
              onFocus={onPrefetch}
            >
              Register
            </button>
          </div>
          <ul className="welcome-features">
            {FEATURES.map((feature) => (
              <li key={feature.title} className="welcome-feature">
                <span className="welcome-feature__icon" aria-hidden="true">
                  <svg viewBox="0 0 20 20" width="16" height="16">
                    <path
                      d="M5 10.5l3 3 7-7"
                      fill="none"
                      stroke="currentColor"
                      strokeWidth="2"
                      strokeLinecap="round"
                      strokeLinejoin="round"
                    />
                  </svg>
                </span>
                <span>
                  <strong className="welcome-feature__title">{feature.title}</strong>
                  <span className="welcome-feature__text">{feature.text}</span>
                </span>
              </li>
            ))}
          </ul>
        </section>
      </main>
      {children}
    </div>
  );
}

/** docs/product.md (Welcome): what signed-out visitors see, at any path. */
export default function Welcome() {
  const { theme } = useTheme();
  const [mode, setMode] = useState<AuthMode>('login');
  const [open, setOpen] = useState(false);

  const openModal = (next: AuthMode) => {
    setMode(next);
    setOpen(true);
  };
  const prefetch = () => {
    void loadAuthModal();
  };

  return (
    <WelcomeView theme={theme} onOpen={openModal} onPrefetch={prefetch}>
      {open && (
        <Suspense fallback={null}>
          <AuthModal mode={mode} onModeChange={setMode} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </WelcomeView>
  );
}
