import { ComingSoonPanel } from './ComingSoonPanel';
import type { SettingsPanelProps } from './types';

/** SPEC.md §2 /settings → LinkedIn Integration. Placeholder: the next work fills it. */
export function LinkedInPanel(_props: SettingsPanelProps) {
  return <ComingSoonPanel title="LinkedIn Integration">Coming soon</ComingSoonPanel>;
}
