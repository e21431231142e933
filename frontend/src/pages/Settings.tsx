import { PageHeader } from '../components/PageHeader';
import { ThemeSettings } from '../components/ThemeSettings';

/** SPEC.md §2 /settings: Theme Settings first; the integration panels and API keys come later. */
export default function SettingsPage() {
  return (
    <div className="page">
      <PageHeader title="Settings" />
      <div className="page-stack">
        <ThemeSettings />
      </div>
    </div>
  );
}
