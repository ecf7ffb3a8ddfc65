/**
 * Response bytes to text: content-encoding (gzip, deflate, br) with an output cap so a small
 * compressed body cannot expand without bound, then the charset from the BOM, the Content-Type
 * header, or the document itself (`<meta charset>`, http-equiv, XML declaration).
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import iconv from 'iconv-lite';
import { AppError } from '@sitelens/contracts';

const gunzip = promisify(zlib.gunzip);
const inflate = promisify(zlib.inflate);
const inflateRaw = promisify(zlib.inflateRaw);
const brotli = promisify(zlib.brotliDecompress);

export function tooLarge(maxBytes: number): AppError {
  return new AppError('PAYLOAD_TOO_LARGE', `The response body is larger than ${maxBytes} bytes`);
}

/** Undoes Content-Encoding; unknown encodings and `identity` pass through unchanged. */
export async function decompress(body: Buffer, encodingHeader: string | undefined, maxBytes: number): Promise<Buffer> {
  const encodings = (encodingHeader ?? '')
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter((e) => e && e !== 'identity');
  let data = body;
  // Encodings are listed in the order they were applied; undo them in reverse.
  for (const encoding of encodings.reverse()) {
    if (data.length === 0) break;
    const limits = { maxOutputLength: maxBytes };
    try {
      if (encoding === 'gzip' || encoding === 'x-gzip') data = await gunzip(data, limits);
      else if (encoding === 'br') data = await brotli(data, limits);
      else if (encoding === 'deflate') {
        // "deflate" is meant to be zlib-wrapped, but some servers send raw deflate.
        const zlibWrapped = ((data[0] ?? 0) & 0x0f) === 8 && ((data[0] ?? 0) * 256 + (data[1] ?? 0)) % 31 === 0;
        data = zlibWrapped ? await inflate(data, limits) : await inflateRaw(data, limits);
      }
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError) {
        throw tooLarge(maxBytes);
      }
      throw new AppError('UPSTREAM_ERROR', `Could not decode the ${encoding}-encoded response body`, { cause: error });
    }
  }
  return data;
}

/** The charset parameter of a Content-Type value, lowercased. */
export function charsetOf(contentType: string | undefined): string | undefined {
  const match = /charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType ?? '');
  return match?.[1]?.toLowerCase();
}

function bomCharset(bytes: Buffer): { charset: string; skip: number } | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { charset: 'utf-8', skip: 3 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { charset: 'utf-16le', skip: 2 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { charset: 'utf-16be', skip: 2 };
  return undefined;
}

/** Looks for a declared charset in the first bytes of an HTML or XML document. */
function sniffDeclaredCharset(bytes: Buffer): string | undefined {
  const head = bytes.subarray(0, 4096).toString('latin1');
  const meta = /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head) ?? /<\?xml[^>]+encoding\s*=\s*["']([\w.:-]+)/i.exec(head);
  return meta?.[1]?.toLowerCase();
}

/** Browsers read these labels as windows-1252, and so do we. */
const LABEL_ALIASES: Record<string, string> = {
  'iso-8859-1': 'windows-1252',
  latin1: 'windows-1252',
  'us-ascii': 'windows-1252',
  ascii: 'windows-1252',
};

function usable(charset: string | undefined): string | undefined {
  if (!charset) return undefined;
  const name = LABEL_ALIASES[charset] ?? charset;
  return iconv.encodingExists(name) ? name : undefined;
}

export function decodeText(bytes: Buffer, contentType: string | undefined): { text: string; charset: string } {
  const bom = bomCharset(bytes);
  if (bom) return { text: iconv.decode(bytes.subarray(bom.skip), bom.charset), charset: bom.charset };
  let charset = usable(charsetOf(contentType));
  if (!charset) {
    charset = usable(sniffDeclaredCharset(bytes)) ?? 'utf-8';
    // A document cannot declare itself UTF-16 in ASCII-compatible bytes; the declaration is wrong.
    if (charset.startsWith('utf-16')) charset = 'utf-8';
  }
  const text = charset === 'utf-8' ? bytes.toString('utf8') : iconv.decode(bytes, charset);
  return { text, charset };
}
