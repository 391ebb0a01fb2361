package nssim.upstream;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import org.apache.rocketmq.remoting.exception.RemotingCommandException;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;

/**
 * One replay channel: one real TCP connection to the NameServer, frames written with upstream's
 * RemotingCommand#encode and read back with RemotingCommand#decode (the 4-byte length prefix is
 * the frame's, as NettyDecoder's LengthFieldBasedFrameDecoder strips it).
 */
final class WireChannel implements AutoCloseable {
    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;

    WireChannel(InetSocketAddress address) throws IOException {
        socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.connect(address, 5000);
        in = new DataInputStream(socket.getInputStream());
        out = socket.getOutputStream();
    }

    void send(RemotingCommand request) throws IOException {
        ByteBuffer frame = request.encode();
        out.write(frame.array(), frame.arrayOffset() + frame.position(), frame.remaining());
        out.flush();
    }

    /** The response to request opaque, or null when none comes within timeoutMs. */
    RemotingCommand awaitResponse(int opaque, int timeoutMs)
            throws IOException, RemotingCommandException {
        socket.setSoTimeout(timeoutMs);
        while (true) {
            int length;
            try {
                length = in.readInt();
            } catch (SocketTimeoutException noAnswer) {
                return null;
            }
            byte[] frame = new byte[length];
            in.readFully(frame);
            RemotingCommand command = RemotingCommand.decode(frame);
            if (command.isResponseType() && command.getOpaque() == opaque) return command;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
