import { useNavigate } from 'react-router-dom';
import { channelsNamedText, importResultText, writeBackDoneText, type SheetsImportResult } from '@app/shared';

/** The results box (docs/product.md, Sheets import). */
export function ImportResults({ result }: { result: SheetsImportResult }) {
  const navigate = useNavigate();
  const skipped = result.alreadyImported ?? 0;
  return (
    <section className="card sheets-card sheets-results" aria-labelledby="sheets-results-title" aria-live="polite">
      <h2 id="sheets-results-title" className="card-title">
        Import results
      </h2>
      <p className="sheets-results__count">{importResultText(result.importedCount)}</p>
      {skipped > 0 && (
        <p className="muted">
          {skipped} {skipped === 1 ? 'row was' : 'rows were'} imported before and skipped.
        </p>
      )}
      {/* Only when the range had a Channels column: which articles it narrowed to the channels named. */}
      {result.channelsNamed !== undefined && result.channelsNamed > 0 && (
        <p className="sheets-results__channels">{channelsNamedText(result.channelsNamed)}</p>
      )}
      {result.writeBack?.status === 'written' && (
        <p className="sheets-results__write-back">{writeBackDoneText(result.writeBack.updatedRange)}</p>
      )}
      {result.writeBack && result.writeBack.status !== 'written' && (
        <p className="alert alert--warning" role="status">
          {result.writeBack.message}
        </p>
      )}
      {result.errors.length > 0 && (
        <div className="sheets-results__errors">
          <h3 className="sheets-results__errors-title">
            {result.errors.length} {result.errors.length === 1 ? 'problem' : 'problems'}
          </h3>
          <ul aria-label="Import errors">
            {result.errors.map((error, i) => (
              <li key={i}>{error}</li>
            ))}
          </ul>
        </div>
      )}
      <div className="sheets-actions">
        <button type="button" className="btn btn--primary" onClick={() => navigate('/schedule')}>
          Go to Schedule
        </button>
      </div>
    </section>
  );
}
