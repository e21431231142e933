/**
 * A small RFC 5322 / MIME reader for tests and the fake Gmail: unfolds headers, decodes RFC 2047
 * encoded-words (B and Q, adjacent words joined), walks multipart bodies and decodes base64 and
 * quoted-printable parts in their charset. Deliberately independent of src/adapters/integrations/mail.ts.
 */

export interface MimePart {
  contentType: string;
  charset?: string;
  headers: Record<string, string>;
  body: string;
}

export interface ParsedMime {
  /** lower-case names, unfolded, NOT decoded */
  headers: Record<string, string>;
  /** decoded header values */
  from?: string;
  to: string;
  subject: string;
  date?: string;
  messageId?: string;
  contentType: string;
  /** first text/plain and text/html leaves */
  text?: string;
  html?: string;
  parts: MimePart[];
  /** every line of the message ends in CRLF */
  crlf: boolean;
}

export function parseMime(raw: string): ParsedMime {
  const crlf = !/(^|[^\r])\n/.test(raw);
  const { headers, body } = splitEntity(raw);
  const parts: MimePart[] = [];
  collectParts(headers, body, parts);
  const decode = (name: string) => (headers[name] !== undefined ? decodeEncodedWords(headers[name]!) : undefined);
  return {
    headers,
    ...(headers.from !== undefined ? { from: decode('from') } : {}),
    to: decode('to') ?? '',
    subject: decode('subject') ?? '',
    ...(headers.date !== undefined ? { date: headers.date } : {}),
    ...(headers['message-id'] !== undefined ? { messageId: headers['message-id'] } : {}),
    contentType: headers['content-type'] ?? 'text/plain',
    text: parts.find((p) => p.contentType === 'text/plain')?.body,
    html: parts.find((p) => p.contentType === 'text/html')?.body,
    parts,
    crlf,
  };
}

function splitEntity(raw: string): { headers: Record<string, string>; body: string } {
  const match = /\r?\n\r?\n/.exec(raw);
  const head = match ? raw.slice(0, match.index) : raw;
  const body = match ? raw.slice(match.index + match[0].length) : '';
  const headers: Record<string, string> = {};
  const unfolded = head.replace(/\r?\n(?=[ \t])/g, '');
  for (const line of unfolded.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body };
}

function param(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  const match = new RegExp(`;\\s*${name}\\s*=\\s*(?:"([^"]*)"|([^;\\s]+))`, 'i').exec(header);
  return match ? (match[1] ?? match[2]) : undefined;
}

function collectParts(headers: Record<string, string>, body: string, out: MimePart[]): void {
  const contentType = (headers['content-type'] ?? 'text/plain').split(';')[0]!.trim().toLowerCase();
  if (contentType.startsWith('multipart/')) {
    const boundary = param(headers['content-type'], 'boundary');
    if (!boundary) return;
    const delimiter = `--${boundary}`;
    const sections = body.split(new RegExp(`(?:^|\\r?\\n)${escapeRegex(delimiter)}`));
    // sections[0] is the preamble; a section starting with "--" is the close delimiter
    for (const section of sections.slice(1)) {
      if (section.startsWith('--')) break;
      const entity = section.replace(/^[ \t]*\r?\n/, '');
      const inner = splitEntity(entity);
      collectParts(inner.headers, inner.body, out);
    }
    return;
  }
  const charset = param(headers['content-type'], 'charset')?.toLowerCase();
  const encoding = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  let bytes: Buffer;
  if (encoding === 'base64') bytes = Buffer.from(body.replace(/\s+/g, ''), 'base64');
  else if (encoding === 'quoted-printable') bytes = decodeQuotedPrintable(body);
  else bytes = Buffer.from(body, 'utf8');
  out.push({ contentType, ...(charset ? { charset } : {}), headers, body: decodeBytes(bytes, charset) });
}

function decodeQuotedPrintable(text: string): Buffer {
  const soft = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < soft.length; i++) {
    const char = soft[i]!;
    if (char === '=' && /^[0-9A-Fa-f]{2}$/.test(soft.slice(i + 1, i + 3))) {
      bytes.push(parseInt(soft.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(char, 'utf8'));
    }
  }
  return Buffer.from(bytes);
}

function decodeBytes(bytes: Buffer, charset: string | undefined): string {
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(bytes);
  } catch {
    return bytes.toString('latin1');
  }
}

/** RFC 2047: `=?charset?B|Q?text?=`; whitespace between adjacent encoded-words is dropped. */
export function decodeEncodedWords(value: string): string {
  const word = /=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g;
  const joined = value.replace(/(\?=)\s+(?==\?)/g, '$1');
  // decode runs of adjacent words with the same charset together, so split UTF-8 sequences survive
  let out = '';
  let last = 0;
  let pending: { charset: string; bytes: Buffer[] } | undefined;
  const flush = () => {
    if (pending) out += decodeBytes(Buffer.concat(pending.bytes), pending.charset.toLowerCase());
    pending = undefined;
  };
  for (let m = word.exec(joined); m; m = word.exec(joined)) {
    const [, charset, kind, text] = m as unknown as [string, string, string, string];
    if (m.index !== last) {
      flush();
      out += joined.slice(last, m.index);
    }
    const bytes =
      kind.toUpperCase() === 'B' ? Buffer.from(text, 'base64') : decodeQuotedPrintable(text.replace(/_/g, ' '));
    if (pending && pending.charset.toLowerCase() === charset.toLowerCase()) pending.bytes.push(bytes);
    else {
      flush();
      pending = { charset, bytes: [bytes] };
    }
    last = m.index + m[0].length;
  }
  flush();
  return out + joined.slice(last);
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
