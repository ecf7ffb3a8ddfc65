import { jsonrepair } from 'jsonrepair';

export type ParsedJson = { ok: true; value: unknown; repaired: boolean } | { ok: false; reason: string };

function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function tryRepair(text: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  try {
    return { ok: true, value: JSON.parse(jsonrepair(text)) };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Reads JSON a model wrote, tolerating what models get almost right: code fences, prose before
 * or after the value, single quotes, trailing commas, unquoted keys, Python literals and an
 * answer cut off at the token limit (jsonrepair). Plain prose is refused rather than "repaired".
 */
export function parseModelJson(text: string): ParsedJson {
  const fenced = /```(?:json|JSON)?[ \t]*\n?([\s\S]*?)(?:```|$)/.exec(text);
  const body = (fenced?.[1] ?? text).trim();
  if (!body) return { ok: false, reason: 'the model returned an empty answer' };

  const start = body.search(/[[{]/);
  if (start < 0) {
    const scalar = tryParse(body);
    return scalar.ok ? { ...scalar, repaired: false } : { ok: false, reason: 'the model answered with text, not JSON' };
  }
  const toEnd = body.slice(start);
  const lastClose = Math.max(body.lastIndexOf('}'), body.lastIndexOf(']'));
  const toLastClose = lastClose > start ? body.slice(start, lastClose + 1) : toEnd;

  for (const candidate of [toEnd, toLastClose]) {
    const parsed = tryParse(candidate);
    if (parsed.ok) return { ...parsed, repaired: false };
  }
  // What follows the last bracket tells a reply cut off mid-value (quotes, colons, commas: repair
  // all of it) from a complete value followed by prose (repair only up to the bracket).
  const tail = body.slice(lastClose + 1);
  const cutOff = lastClose < start || /["':,[{]/.test(tail);
  const order = cutOff ? [toEnd, toLastClose] : [toLastClose, toEnd];
  let reason = '';
  for (const candidate of order) {
    const repaired = tryRepair(candidate);
    if (repaired.ok) return { ...repaired, repaired: true };
    reason ||= repaired.reason;
  }
  return { ok: false, reason: `the model's answer is not JSON (${reason})` };
}
