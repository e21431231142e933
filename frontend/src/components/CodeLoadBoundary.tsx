import { Component, type ReactNode } from 'react';
import { LoadFailed } from './LoadFailed';

interface CodeLoadBoundaryProps {
  /** What failed, as a sentence's subject ("This page", "The change-password form"). */
  what: string;
  children: ReactNode;
  /** Told instead of showing the alert in place (a dialog that closes and says so in a toast). */
  onError?: (message: string) => void;
}

/** What is said when code fetched on demand could not be loaded. */
const codeLoadFailed = (what: string) =>
  `${what} could not be loaded. Check your connection, or reload the page: a new version of the app may be out.`;

/**
 * Around code fetched on demand (React.lazy: every page, the dialogs): when its chunk cannot be fetched (the
 * connection dropped, or a deployment replaced the chunks this tab knows), what failed is said with a Reload button,
 * where without it React unmounts the whole app and leaves a blank window.
 */
export class CodeLoadBoundary extends Component<CodeLoadBoundaryProps, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  componentDidCatch() {
    this.props.onError?.(codeLoadFailed(this.props.what));
  }

  render() {
    if (!this.state.failed) return this.props.children;
    if (this.props.onError) return null;
    return (
      <LoadFailed
        text={codeLoadFailed(this.props.what)}
        query={{ isFetching: false, refetch: () => window.location.reload() }}
        action="Reload"
      />
    );
  }
}
