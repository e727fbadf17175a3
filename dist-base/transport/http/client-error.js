/**
 * Answers requests Node's HTTP parser refuses (an oversized head, malformed HTTP, a request too slow)
 * with the service's error body, then closes our side and drains what the client still sends (at most
 * `DRAIN_MS`). Node's default destroys the socket at once, so a client still sending gets a TCP reset
 * before the status and sees ECONNRESET instead of a 431 telling it what to shorten. A request whose
 * handler already answers gets it through its own response; one whose response had begun is destroyed.
 */
import { STATUS_CODES } from 'node:http';
import { encodeJson } from './send-json.js';
/** How long a refused connection is drained before it is destroyed. */
export const DRAIN_MS = 2_000;
/** The answer for a parser error code: status and a message saying what to do. */
export function clientErrorAnswer(code, maxHeaderBytes) {
    switch (code) {
        case 'HPE_HEADER_OVERFLOW':
            return {
                status: 431,
                message: `the request line and headers are larger than ${maxHeaderBytes / 1024} KiB; shorten the `
                    + `URL or the headers`,
            };
        case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
            return { status: 413,
                message: 'the chunk extensions of the request body are too large; send the body without them' };
        case 'ERR_HTTP_REQUEST_TIMEOUT':
            return { status: 408,
                message: 'the request did not arrive in time; send the whole request again without pausing' };
        default:
            return { status: 400,
                message: 'the request is not valid HTTP/1.1; check the request line, the headers and the body framing' };
    }
}
/** Install the answer on `server` (replaces Node's default clientError handling). */
export function answerClientErrors(server, maxHeaderBytes) {
    // The response under way on each connection, so an error mid-request answers through it.
    const answering = new WeakMap();
    server.on('request', (req, res) => {
        answering.set(req.socket, res);
        res.once('close', () => {
            if (answering.get(req.socket) === res)
                answering.delete(req.socket);
        });
    });
    server.on('clientError', (err, socket) => {
        const res = answering.get(socket);
        if (err.code === 'ECONNRESET' || !socket.writable || res?.headersSent) {
            socket.destroy();
            return;
        }
        const { status, message } = clientErrorAnswer(err.code, maxHeaderBytes);
        const body = encodeJson({ error: { code: 'invalid_request', message } });
        if (res) {
            res.shouldKeepAlive = false;
            res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body),
                Connection: 'close' });
            res.end(body);
        }
        else {
            socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\n`
                + `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
        }
        // Read and drop what the client still sends, so closing does not reset the
        // connection before the client has read the answer.
        socket.on('data', () => undefined);
        socket.on('error', () => undefined);
        const timer = setTimeout(() => socket.destroy(), DRAIN_MS);
        timer.unref();
        socket.once('close', () => clearTimeout(timer));
    });
}
//# sourceMappingURL=client-error.js.map