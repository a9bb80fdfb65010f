import { Client, Connection } from '@temporalio/client';

export async function connectTemporalClient(address: string, namespace: string): Promise<Client> {
  const connection = await Connection.connect({ address });
  return new Client({ connection, namespace });
}
