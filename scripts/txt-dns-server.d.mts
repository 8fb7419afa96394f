export interface TxtDnsServer {
  /** `127.0.0.1:<port>`: what the reference server's `DNS_SERVER` takes. */
  address: string;
  close(): Promise<void>;
}
export function startTxtDnsServer(lookup: (name: string) => string[] | undefined): Promise<TxtDnsServer>;
