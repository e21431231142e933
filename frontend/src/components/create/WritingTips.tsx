import { CHANNELS } from '@app/shared';
const TIPS = [
  {
    title: 'Lead with a specific title',
    text: 'Promise one clear outcome ("Cut your reporting time in half") rather than a broad theme.',
  },
  {
    title: 'Make the topic a sentence',
    text: 'Say who it is for and what they will learn. The drafts follow it closely.',
  },
  {
    title: 'One keyword, used naturally',
    text: 'Pick the phrase your readers search for. It guides headings and hashtags without stuffing.',
  },
  {
    title: 'Give the details as points',
    text: 'List facts, examples, numbers and the tone you want, one per line. Each point can become a section.',
  },
  {
    title: 'Describe the image concretely',
    text: 'Subject, style and mood ("flat illustration, calm blue palette") beat abstract ideas. Avoid text in images.',
  },
  {
    title: 'Review before you schedule',
    text: `Edit by hand or ask GPT for changes such as "shorter" or "add hashtags".${CHANNELS.map((channel) =>
      channel.textLimit ? ` ${channel.label} posts stay under ${channel.textLimit.max} characters.` : '',
    ).join('')}`,
  },
];

/** The tips panel on the right of /create. */
export function WritingTips() {
  return (
    <aside className="card tips" aria-labelledby="writing-tips-title">
      <h2 id="writing-tips-title" className="card-title">
        Writing tips
      </h2>
      <ol className="tips__list">
        {TIPS.map((tip) => (
          <li key={tip.title} className="tips__item">
            <p className="tips__title">{tip.title}</p>
            <p className="tips__text">{tip.text}</p>
          </li>
        ))}
      </ol>
    </aside>
  );
}
