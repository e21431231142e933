/**
 * The two libraries of the Markdown pipeline (markdown.ts), imported: in the browser and in Node.
 * A Lambda bundle takes markdown-libraries.lambda.ts instead (the `lambda` condition of this
 * package's `#markdown-libraries` import, infra/lib/bundling.ts).
 */
export { Marked } from 'marked';
export { default as sanitizeHtml } from 'sanitize-html';
