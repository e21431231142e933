import { ComingSoonPanel } from './ComingSoonPanel';
import type { SettingsPanelProps } from './types';

/** SPEC.md §2 /settings → WordPress Integration. Placeholder: the next work fills it. */
export function WordPressPanel(_props: SettingsPanelProps) {
  return <ComingSoonPanel title="WordPress Integration">Coming soon</ComingSoonPanel>;
}
