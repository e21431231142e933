import { CHANNELS_COLUMN_TITLE, SHEET_COLUMNS } from '@app/shared';
import { CHANNEL_REGISTRY } from '../../channels/registry';

const LETTERS = 'ABCDEFG';
/** The names a Channels cell may use: every channel of the registry. */
const channelNames = () => {
  const labels = CHANNEL_REGISTRY.map((channel) => channel.label);
  return labels.length > 1 ? `${labels.slice(0, -1).join(', ')} or ${labels.at(-1)}` : labels.join('');
};

/** docs/product.md (Sheets import): the expected sheet columns, in order. */
export function ExpectedFormat() {
  return (
    <aside className="card sheets-format" aria-labelledby="sheets-format-title">
      <h2 id="sheets-format-title" className="card-title">
        Expected format
      </h2>
      <p className="card-description">One article per row, in these columns:</p>
      <ol className="sheets-format__list">
        {SHEET_COLUMNS.map((column, i) => (
          <li key={column.key} className="sheets-format__item">
            <span className="sheets-format__letter" aria-hidden="true">
              {LETTERS[i]}
            </span>
            <span>
              <strong>{column.label}</strong>{' '}
              <span className="muted">
                ({column.required ? 'required' : 'note' in column ? column.note : 'optional'})
              </span>
            </span>
          </li>
        ))}
        <li className="sheets-format__item">
          <span className="sheets-format__letter" aria-hidden="true">
            {LETTERS[SHEET_COLUMNS.length]}
          </span>
          <span>
            <strong>{CHANNELS_COLUMN_TITLE}</strong>{' '}
            <span className="muted">
              (optional, needs the heading row and a range reaching column {LETTERS[SHEET_COLUMNS.length]}, e.g.
              Sheet1!A1:{LETTERS[SHEET_COLUMNS.length]}50: {channelNames()}, comma separated; the article goes only
              there)
            </span>
          </span>
        </li>
      </ol>
      <ul className="sheets-notes">
        <li>A first row with these headings is skipped.</li>
        <li>Rows missing a required value are listed after the import and left out.</li>
        <li>Importing the same rows again does not create duplicates.</li>
        <li>Content is drafted in the background after the import.</li>
        <li>A row naming an unknown channel is listed after the import and left out.</li>
        <li>
          Optionally, each row’s status is written to the column after Tags (G), or after Channels when it is read.
        </li>
      </ul>
    </aside>
  );
}
