/** JSON output is the extracted data itself; the response serialises it. */
export function toJson(data: unknown): unknown {
  return data;
}
