/**
 * markdown-libraries.ts for a Lambda bundle (infra/lib/bundling.ts builds with the `lambda` condition):
 * marked and sanitize-html are loaded with import() when the Markdown pipeline is first used (a
 * WordPress publish), from the packages installed next to the bundle. A static import would be hoisted
 * to the bundle's top and load both, ~230 KB with postcss and htmlparser2, at every cold start.
 */
const [marked, sanitize] = await Promise.all([import('marked'), import('sanitize-html')]);

export const Marked = marked.Marked;
export const sanitizeHtml = sanitize.default;
