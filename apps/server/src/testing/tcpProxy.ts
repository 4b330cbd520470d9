import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP relay between the app and its PostgreSQL, so a test can take the database away and bring it back
 * (`cut`, `restore`) without stopping the server other tests share.
 */
export interface TcpProxy {
  port: number;
  /** Drops every open connection and refuses new ones, as a database that went away. */
  cut(): Promise<void>;
  /** Accepts connections again on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const makeServer = () =>
    createServer((client) => {
      const upstream = connect(targetPort, targetHost);
      sockets.add(client).add(upstream);
      const end = () => {
        client.destroy();
        upstream.destroy();
        sockets.delete(client);
        sockets.delete(upstream);
      };
      client.on('error', end).on('close', end);
      upstream.on('error', end).on('close', end);
      client.pipe(upstream).pipe(client);
    });
  const listen = (server: Server, port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
    });
  let server = makeServer();
  const port = await listen(server, 0);
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      sockets.clear();
      server.close(() => resolve());
    });
  return {
    port,
    cut: stop,
    restore: async () => {
      server = makeServer();
      await listen(server, port);
    },
    close: stop,
  };
}
