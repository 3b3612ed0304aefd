// What a describer runs with: the current user's client, the virtual clock's now (ages), and --show-events.
import type { Client } from '../../control-plane/client/client';

export interface DescriberSettings {
  client: Client;
  /** ms since the epoch (the cluster's virtual clock). */
  now: number;
  showEvents: boolean;
}

/** Describes one object; throws the API server's StatusError when it cannot be read. */
export type Describer = (settings: DescriberSettings, namespace: string, name: string) => string;
