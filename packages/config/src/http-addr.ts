export interface ListenAddress {
  host: string;
  port: number;
}

/** Parses `host:port`, `:port` or `[v6]:port`. An empty host listens on every interface. */
export function parseHttpAddr(text: string): ListenAddress | undefined {
  const match = /^(?:\[([^\]]+)\]|([^:]*)):(\d{1,5})$/.exec(text.trim());
  if (!match) return undefined;
  const port = Number(match[3]);
  if (!Number.isInteger(port) || port < 0 || port > 65535) return undefined;
  return { host: match[1] ?? match[2] ?? '', port };
}
