import { ComingSoonPanel } from './ComingSoonPanel';
import type { SettingsPanelProps } from './types';

/** SPEC.md §2 /settings → Gmail API Configuration. Placeholder: the next work fills it. */
export function EmailPanel(_props: SettingsPanelProps) {
  return (
    <ComingSoonPanel title="Gmail API Configuration" badge="Gmail API Only">
      Coming soon
    </ComingSoonPanel>
  );
}
