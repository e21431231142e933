import { PageHeader } from '../components/PageHeader';

/** Placeholder: SPEC.md §2 describes this screen; later work fills it. */
export default function CreatePage() {
  return (
    <div className="page">
      <PageHeader title="Create Article" />
    </div>
  );
}
