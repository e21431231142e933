import { describe, expect, it } from 'vitest';
import { httpUrlOrNull, renderMarkdown, wordpressPost } from '../src/index.js';

const ALLOWED_TAGS = new Set(
  'h1 h2 h3 h4 h5 h6 p br hr blockquote pre code strong em b i u s del ul ol li a img table thead tbody tr th td'.split(
    ' ',
  ),
);
const ALLOWED_ATTRIBUTES: Record<string, string[]> = {
  a: ['href', 'title', 'target', 'rel'],
  img: ['src', 'alt', 'title'],
  ol: ['start'],
  th: ['align'],
  td: ['align'],
  code: ['class'],
};

/** Every tag and attribute of the output (sanitize-html serialises it, so a scan is exact). */
function elements(html: string): { tag: string; attributes: Record<string, string> }[] {
  return [...html.matchAll(/<([a-zA-Z][\w-]*)((?:\s+[^\s=>/]+(?:="[^"]*")?)*)\s*\/?>/g)].map(([, tag, attrs]) => ({
    tag: tag!.toLowerCase(),
    attributes: Object.fromEntries(
      [...attrs!.matchAll(/\s+([^\s=>/]+)(?:="([^"]*)")?/g)].map(([, name, value]) => [
        name!.toLowerCase(),
        value ?? '',
      ]),
    ),
  }));
}

function expectOnlyAllowed(html: string) {
  for (const { tag, attributes } of elements(html)) {
    expect(ALLOWED_TAGS, `<${tag}> in ${html}`).toContain(tag);
    for (const [name, value] of Object.entries(attributes)) {
      expect(ALLOWED_ATTRIBUTES[tag] ?? [], `${tag}[${name}] in ${html}`).toContain(name);
      if (name === 'href') expect(value).toMatch(/^(https?:\/\/|mailto:|\/(?!\/)|#|[\w.-]+(\/|$))/i);
      if (name === 'src') expect(value).toMatch(/^https?:\/\//i);
      if (name === 'class') expect(value).toMatch(/^language-[\w-]+$/);
    }
  }
}

describe('renderMarkdown: Markdown → sanitized HTML (what is published and previewed)', () => {
  it('renders the Markdown an article uses', () => {
    const html = renderMarkdown(
      [
        '# Title',
        '',
        'A **bold**, *soft* and ~~struck~~ line with `code` and a [link](https://example.com/a "A").',
        '',
        '> Quoted',
        '',
        '- one',
        '- two',
        '',
        '3. three',
        '',
        '```ts',
        'const a = 1 < 2;',
        '```',
        '',
        '| Left | Mid |',
        '|:-----|:---:|',
        '| 1    | 2   |',
        '',
        '---',
        '',
        '![Chart](https://example.com/c.png "Figure")',
      ].join('\n'),
    );
    expect(html).toBe(
      [
        '<h1>Title</h1>',
        '<p>A <strong>bold</strong>, <em>soft</em> and <del>struck</del> line with <code>code</code> and a <a href="https://example.com/a" title="A" target="_blank" rel="noopener noreferrer">link</a>.</p>',
        '<blockquote>',
        '<p>Quoted</p>',
        '</blockquote>',
        '<ul>',
        '<li>one</li>',
        '<li>two</li>',
        '</ul>',
        '<ol start="3">',
        '<li>three</li>',
        '</ol>',
        '<pre><code class="language-ts">const a = 1 &lt; 2;',
        '</code></pre>',
        '<table>',
        '<thead>',
        '<tr>',
        '<th align="left">Left</th>',
        '<th align="center">Mid</th>',
        '</tr>',
        '</thead>',
        '<tbody><tr>',
        '<td align="left">1</td>',
        '<td align="center">2</td>',
        '</tr>',
        '</tbody></table>',
        '<hr />',
        '<p><img src="https://example.com/c.png" alt="Chart" title="Figure" /></p>',
        '',
      ].join('\n'),
    );
    expectOnlyAllowed(html);
  });

  it('drops <script> (and style, iframe, object, embed, form, svg) with what they run', () => {
    const html = renderMarkdown(
      [
        'Before',
        '',
        '<script>alert("block")</script>',
        '',
        'Inline <script>alert("inline")</script> and <scr<script>ipt>alert("split")</script>',
        '',
        '<style>body{display:none}</style><iframe src="https://example.com/x">framed</iframe><object data="x.swf"></object><embed src="x.swf">',
        '',
        '<form action="https://example.com/steal"><input name="password"><button>Go</button></form>',
        '',
        '<svg onload="alert(1)"><a xlink:href="javascript:alert(2)">svg</a></svg><math><mi>m</mi></math>',
        '',
        'After',
      ].join('\n'),
    );
    expect(html).not.toMatch(
      /<script|<\/script|alert\("(block|inline)"\)|<style|display:none|<iframe|framed|<object|<embed|<form|<input|<button|<svg|<math|xlink/i,
    );
    expect(html).toContain('<p>Before</p>');
    expect(html).toContain('<p>After</p>');
    expectOnlyAllowed(html);
  });

  it('removes every event-handler, style, class and id attribute', () => {
    const html = renderMarkdown(
      [
        '<img src="https://example.com/a.png" onerror="alert(1)" onload=alert(2) style="position:fixed">',
        '<img src=x onerror=alert(3)>',
        '<b onmouseover="alert(4)" class="x" id="y">bold</b> <p style="color:red" ONCLICK="alert(5)">para</p>',
        '<a href="https://example.com" onfocus="alert(6)" autofocus>link</a>',
      ].join('\n'),
    );
    expect(html).not.toMatch(/\son\w+=|style=|class=|id=|autofocus|alert/i);
    expect(html).toContain('<img src="https://example.com/a.png" />');
    expect(html).toContain('<b>bold</b>');
    expectOnlyAllowed(html);
  });

  it.each([
    ['a Markdown link', '[click](javascript:alert(1))'],
    ['upper case', '[click](JAVASCRIPT:alert(1))'],
    ['vbscript', '[click](vbscript:msgbox(1))'],
    ['a data: document', '[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)'],
    ['an autolink', '<javascript:alert(1)>'],
    ['a reference link', '[click][x]\n\n[x]: javascript:alert(1)'],
    ['raw HTML', '<a href="javascript:alert(1)">click</a>'],
    ['a hex entity', '<a href="jav&#x61;script:alert(1)">click</a>'],
    ['a decimal entity', '<a href="&#106;avascript:alert(1)">click</a>'],
    ['a named entity for the colon', '<a href="javascript&colon;alert(1)">click</a>'],
    ['an encoded tab', '<a href="java&#x09;script:alert(1)">click</a>'],
    ['an encoded newline', '<a href="java&#10;script:alert(1)">click</a>'],
    ['a leading space and control character', '<a href=" &#14;javascript:alert(1)">click</a>'],
    ['no quotes', '<a href=javascript:alert(1)>click</a>'],
    ['protocol-relative', '<a href="//evil.example/x">click</a>'],
  ])('a link by %s keeps its text but loses the address', (_, markdown) => {
    const html = renderMarkdown(markdown);
    expect(html).not.toMatch(/<a[\s>]|href=/i);
    expect(html).toMatch(/^<p>(click|javascript:alert\(1\))<\/p>\n$/); // an autolink's text is its address
    expectOnlyAllowed(html);
  });

  it.each([
    ['javascript:', '![x](javascript:alert(1))'],
    ['data:', '![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)'],
    ['an entity-encoded javascript:', '<img src="jav&#x61;script:alert(1)">'],
    ['a relative address', '![x](/api/articles)'],
    ['a protocol-relative address', '<img src="//evil.example/x.png">'],
  ])('an image whose source is %s is dropped', (_, markdown) => {
    const html = renderMarkdown(markdown);
    expect(html).not.toMatch(/<img|src=/i);
  });

  it('keeps http(s), mailto and relative links; only absolute http(s) ones open a new tab, whatever the author wrote', () => {
    const html = renderMarkdown(
      '[a](http://example.com) [b](mailto:team@example.com) [c](/about) [d](#part) <a href="https://example.com/x" target="_self" rel="opener">e</a>',
    );
    expect(html).toBe(
      '<p><a href="http://example.com" target="_blank" rel="noopener noreferrer">a</a> <a href="mailto:team@example.com">b</a> <a href="/about">c</a> <a href="#part">d</a> <a href="https://example.com/x" target="_blank" rel="noopener noreferrer">e</a></p>\n',
    );
  });

  it('text that looks like HTML inside code stays text', () => {
    expect(renderMarkdown('`<script>alert(1)</script>`')).toBe(
      '<p><code>&lt;script&gt;alert(1)&lt;/script&gt;</code></p>\n',
    );
  });

  it('is the same for the same text, and sanitizing its own output changes nothing', () => {
    const text =
      '# T\n\n<b onclick="x">b</b> [l](https://example.com) <img src="https://example.com/i.png" onerror="x">';
    const html = renderMarkdown(text);
    expect(renderMarkdown(text)).toBe(html);
    expect(renderMarkdown(html)).toBe(html);
  });
});

describe('httpUrlOrNull: only an absolute http(s) address is kept', () => {
  it.each(['https://blog.example.com/2025/03/01/post/', 'http://127.0.0.1:8080/?p=12', ' https://blog.example.com/x '])(
    '%s is kept',
    (url) => {
      expect(httpUrlOrNull(url)).toBe(url.trim());
    },
  );

  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    ' javascript:alert(1)',
    'data:text/html,x',
    '//evil.example/x',
    '/relative',
    'https://',
    'ftp://x',
    '',
    null,
    undefined,
    42,
  ])('%s is refused', (url) => {
    expect(httpUrlOrNull(url)).toBeNull();
  });
});

describe('wordpressPost: the title and content publishing sends', () => {
  it('is the title as text, the title escaped for WordPress (which takes it as HTML) and the blog text as sanitized HTML', () => {
    const blogContent = '# Hello <script>alert(1)</script>\n\nText with [a link](https://example.com).';
    expect(wordpressPost({ title: `Tips & <tricks> "quoted" it's`, blogContent })).toEqual({
      title: `Tips & <tricks> "quoted" it's`,
      titleHtml: 'Tips &amp; &lt;tricks&gt; &quot;quoted&quot; it&#39;s',
      html: renderMarkdown(blogContent),
    });
    expect(wordpressPost({ title: 't', blogContent }).html).not.toMatch(/<script/);
  });

  it.each([
    ['an H1 of the title', 'Ten habits of calm teams', '# Ten habits of calm teams\n\nBody text.'],
    [
      'other case, spacing and punctuation',
      'Ten habits: of calm teams!',
      '\n  #   TEN habits of   calm teams  \r\n\r\nBody text.',
    ],
    ['a closed ATX heading of another level', 'Why releases matter?', '## Why *releases* matter ##\n\nBody text.'],
    ['a setext heading with inline marks', 'Ship `v2` today', 'Ship **v2** today\n===\n\nBody text.'],
  ])(
    'leaves out a leading heading that repeats the title (%s): the post has one headline',
    (_case, title, blogContent) => {
      const post = wordpressPost({ title, blogContent });
      expect(post).toEqual({ title, titleHtml: title, html: '<p>Body text.</p>\n' });
      expect(post.html).not.toMatch(/<h[1-6]/);
    },
  );

  it('keeps a leading heading that is not the title, and a heading of the title further down', () => {
    const other = '# Ten habits of calm teams, explained\n\nBody.';
    expect(wordpressPost({ title: 'Ten habits of calm teams', blogContent: other }).html).toBe(renderMarkdown(other));
    const later = 'Intro.\n\n# Ten habits\n\nBody.';
    expect(wordpressPost({ title: 'Ten habits', blogContent: later }).html).toBe(renderMarkdown(later));
    // A title of punctuation only matches nothing.
    expect(wordpressPost({ title: '!!!', blogContent: '# ?\n\nBody.' }).html).toBe(renderMarkdown('# ?\n\nBody.'));
  });

  it('the rest of the text is rendered as before, reference links included', () => {
    const rest = 'Body with [a link][ref].\n\n## Next\n\n[ref]: https://example.com/';
    expect(wordpressPost({ title: 'Title', blogContent: `# Title\n\n${rest}` }).html).toBe(renderMarkdown(rest));
  });
});
