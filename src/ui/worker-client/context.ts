// The protocol client, handed down through React context so components call the worker without importing a
// module-level singleton (and tests can give them another client).
import { createContext, useContext } from 'react';
import type { ProtocolClient } from '../../shared/protocol/client';

export const ClientContext = createContext<ProtocolClient | undefined>(undefined);

export function useClient(): ProtocolClient {
  const client = useContext(ClientContext);
  if (!client) throw new Error('useClient outside <ClientContext.Provider>');
  return client;
}
