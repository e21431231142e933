import { PageHeader } from '../components/PageHeader';

/** Placeholder: SPEC.md §2 describes this screen; later work fills it. */
export default function DashboardPage() {
  return (
    <div className="page">
      <PageHeader title="Dashboard" />
    </div>
  );
}
