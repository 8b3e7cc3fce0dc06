package org.claimdesk.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP relay on 127.0.0.1 to a server, whose connections can be made to fall silent without being closed: what a
 * network that drops a connection (a laptop's sleep, a firewall's idle timeout) does to both ends. Connections made
 * after {@link #silenceOpenConnections} are relayed as before.
 */
public final class SilentProxy implements AutoCloseable {
    private final ServerSocket listening;
    private final String host;
    private final int port;
    private final List<Relay> relays = new CopyOnWriteArrayList<>();
    /** Open while new connections are relayed at once; closed while they are held (a slow network or server). */
    private volatile java.util.concurrent.CountDownLatch gate = new java.util.concurrent.CountDownLatch(0);

    /** One relayed connection: its two sockets, and whether it still carries bytes. */
    private static final class Relay {
        final Socket client;
        final Socket server;
        volatile boolean silent;

        Relay(Socket client, Socket server) {
            this.client = client;
            this.server = server;
        }
    }

    public SilentProxy(String host, int port) throws IOException {
        this(host, port, 0);
    }

    /** A proxy listening on {@code listenPort} of the loopback address (0 for any free port). */
    public SilentProxy(String host, int port, int listenPort) throws IOException {
        this.host = host;
        this.port = port;
        this.listening = new ServerSocket(listenPort, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "silent-proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public int port() {
        return listening.getLocalPort();
    }

    /** From now on, a new connection is accepted but not relayed (nothing reaches the server) until released. */
    public void holdNewConnections() {
        gate = new java.util.concurrent.CountDownLatch(1);
    }

    /** Relays the connections held, and new ones at once again. */
    public void releaseHeldConnections() {
        gate.countDown();
    }

    /** From now on, every connection open now carries nothing either way, and stays open. */
    public void silenceOpenConnections() {
        relays.forEach(r -> r.silent = true);
    }

    private void accept() {
        while (!listening.isClosed()) {
            try {
                Socket client = listening.accept();
                gate.await();
                Socket server = new Socket(host, port);
                Relay relay = new Relay(client, server);
                relays.add(relay);
                pump(relay, client.getInputStream(), server.getOutputStream());
                pump(relay, server.getInputStream(), client.getOutputStream());
            } catch (IOException e) {
                return;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static void pump(Relay relay, InputStream from, OutputStream to) {
        Thread t = new Thread(() -> {
            byte[] buffer = new byte[8192];
            try {
                for (int n = from.read(buffer); n >= 0; n = from.read(buffer)) {
                    if (!relay.silent) {
                        to.write(buffer, 0, n);
                        to.flush();
                    }
                }
            } catch (IOException closed) {
                // the other end or the proxy closed the connection
            }
        }, "silent-proxy-relay");
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void close() throws IOException {
        gate.countDown();
        listening.close();
        for (Relay r : relays) {
            r.client.close();
            r.server.close();
        }
    }
}
