/**
 * Answers requests Node's HTTP parser refuses (an oversized head, malformed HTTP, a request too slow)
 * with the service's error body, then closes our side and drains what the client still sends (at most
 * `DRAIN_MS`). Node's default destroys the socket at once, so a client still sending gets a TCP reset
 * before the status and sees ECONNRESET instead of a 431 telling it what to shorten. A request whose
 * handler already answers gets it through its own response; one whose response had begun is destroyed.
 */
import { STATUS_CODES, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { encodeJson } from './send-json.js';

/** How long a refused connection is drained before it is destroyed. */
export const DRAIN_MS = 2_000;

/** The answer for a parser error code: status and a message saying what to do. */
export function clientErrorAnswer(
  code: string | undefined, maxHeaderBytes: number,
): { status: number; message: string } {
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
export function answerClientErrors(server: Server, maxHeaderBytes: number): void {
  // The last response begun on each connection, so an error mid-request answers through it; one
  // already written is over, and an error after it belongs to the next request, which has none yet.
  const answering = new WeakMap<Duplex, ServerResponse>();
  server.on('request', (req, res: ServerResponse) => {
    answering.set(req.socket, res);
  });
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    const last = answering.get(socket);
    const res = last && !last.writableFinished ? last : undefined;
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
    } else {
      socket.end(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\n`
        + `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
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
