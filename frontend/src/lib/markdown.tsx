import type { ReactNode } from 'react';

/**
 * A small, safe Markdown renderer for the blog preview: headings, paragraphs, block quotes, lists,
 * fenced code, rules, and inline bold, italic, code and links. Output is React elements only (no
 * HTML injection); links are limited to http(s), mailto and relative addresses.
 */

const INLINE =
  /(`[^`\n]+`)|(\*\*[^*\n]+?\*\*|__[^_\n]+?__)|(\*[^*\s][^*\n]*?\*|\b_[^_\s][^_\n]*?_\b)|(\[[^\]\n]+\]\([^)\s]+\))/g;

function safeHref(url: string): string | undefined {
  return /^(https?:|mailto:|\/|#)/i.test(url) ? url : undefined;
}

export function renderInline(text: string, keyPrefix = 'i'): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  let n = 0;
  for (const match of text.matchAll(INLINE)) {
    const index = match.index ?? 0;
    if (index > last) out.push(text.slice(last, index));
    const [token, code, bold, italic, link] = match;
    const key = `${keyPrefix}-${n++}`;
    if (code) out.push(<code key={key}>{code.slice(1, -1)}</code>);
    else if (bold) out.push(<strong key={key}>{renderInline(bold.slice(2, -2), key)}</strong>);
    else if (italic) out.push(<em key={key}>{renderInline(italic.slice(1, -1), key)}</em>);
    else if (link) {
      const [, label = '', url = ''] = /^\[([^\]]+)\]\(([^)\s]+)\)$/.exec(link) ?? [];
      const href = safeHref(url);
      out.push(
        href ? (
          <a key={key} href={href} target="_blank" rel="noopener noreferrer">
            {renderInline(label, key)}
          </a>
        ) : (
          label
        ),
      );
    } else out.push(token);
    last = index + token.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const BULLET = /^\s*[-*+•]\s+(.*)$/;
const ORDERED = /^\s*\d+[.)]\s+(.*)$/;
const RULE = /^\s*([-*_])(\s*\1){2,}\s*$/;
const FENCE = /^\s*```/;

type HeadingTag = 'h3' | 'h4' | 'h5' | 'h6';
// The preview sits inside a dialog whose own title is an h2, so article headings start at h3.
const HEADING_TAGS: HeadingTag[] = ['h3', 'h4', 'h5', 'h6', 'h6', 'h6'];

export function Markdown({ source, className = 'markdown' }: { source: string; className?: string }) {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: ReactNode[] = [];
  let i = 0;
  let key = 0;
  const isBlank = (line: string | undefined) => line === undefined || line.trim() === '';

  while (i < lines.length) {
    const line = lines[i]!;
    if (isBlank(line)) {
      i++;
      continue;
    }
    const k = `b${key++}`;
    if (FENCE.test(line)) {
      const code: string[] = [];
      i++;
      while (i < lines.length && !FENCE.test(lines[i]!)) code.push(lines[i++]!);
      i++;
      blocks.push(
        <pre key={k}>
          <code>{code.join('\n')}</code>
        </pre>,
      );
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      const level = heading[1]!.length;
      const Tag = HEADING_TAGS[level - 1]!;
      blocks.push(
        <Tag key={k} className={`markdown__h${level}`}>
          {renderInline(heading[2]!, k)}
        </Tag>,
      );
      i++;
      continue;
    }
    if (RULE.test(line)) {
      blocks.push(<hr key={k} />);
      i++;
      continue;
    }
    if (line.trimStart().startsWith('>')) {
      const quoted: string[] = [];
      while (i < lines.length && lines[i]!.trimStart().startsWith('>')) {
        quoted.push(lines[i++]!.trimStart().replace(/^>\s?/, ''));
      }
      blocks.push(
        <blockquote key={k}>
          <Markdown source={quoted.join('\n')} className="markdown__quote" />
        </blockquote>,
      );
      continue;
    }
    const listKind = BULLET.test(line) ? 'ul' : ORDERED.test(line) ? 'ol' : null;
    if (listKind) {
      const pattern = listKind === 'ul' ? BULLET : ORDERED;
      const items: string[] = [];
      while (i < lines.length && pattern.test(lines[i]!)) items.push(pattern.exec(lines[i++]!)![1]!);
      const children = items.map((item, n) => <li key={n}>{renderInline(item, `${k}-${n}`)}</li>);
      blocks.push(listKind === 'ul' ? <ul key={k}>{children}</ul> : <ol key={k}>{children}</ol>);
      continue;
    }
    const paragraph: string[] = [];
    while (
      i < lines.length &&
      !isBlank(lines[i]) &&
      !HEADING.test(lines[i]!) &&
      !RULE.test(lines[i]!) &&
      !FENCE.test(lines[i]!) &&
      !lines[i]!.trimStart().startsWith('>') &&
      !BULLET.test(lines[i]!) &&
      !ORDERED.test(lines[i]!)
    ) {
      paragraph.push(lines[i++]!.trim());
    }
    blocks.push(<p key={k}>{renderInline(paragraph.join(' '), k)}</p>);
  }
  return <div className={className}>{blocks}</div>;
}
