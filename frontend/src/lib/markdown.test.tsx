import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { Markdown } from './markdown';

describe('Markdown preview', () => {
  it('renders headings, quotes, lists, emphasis and safe links only', () => {
    const { container } = render(
      <Markdown
        source={[
          '# Title',
          '> Offline draft',
          'A **bold** and *soft* line',
          'continues here with `code`.',
          '## Part',
          '- one',
          '- two',
          '1. first',
          '[ok](https://example.com) [bad](javascript:alert(1)) <b>raw</b>',
        ].join('\n')}
      />,
    );
    expect(screen.getByRole('heading', { name: 'Title' }).tagName).toBe('H3');
    expect(screen.getByRole('heading', { name: 'Part' }).tagName).toBe('H4');
    expect(container.querySelector('blockquote')).toHaveTextContent('Offline draft');
    expect(container.querySelector('strong')).toHaveTextContent('bold');
    expect(container.querySelector('em')).toHaveTextContent('soft');
    expect(container.querySelector('p code')).toHaveTextContent('code');
    expect(screen.getByText(/A/, { selector: 'p' })).toHaveTextContent('A bold and soft line continues here with code.');
    expect(container.querySelectorAll('ul li')).toHaveLength(2);
    expect(container.querySelectorAll('ol li')).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'ok' })).toHaveAttribute('href', 'https://example.com');
    expect(screen.queryByRole('link', { name: 'bad' })).not.toBeInTheDocument();
    expect(container.querySelector('b')).toBeNull();
    expect(container.textContent).toContain('<b>raw</b>');
  });
});
