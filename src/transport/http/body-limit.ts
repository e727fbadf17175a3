/**
 * Reading a request body within a limit, for REST and MCP alike: the body is refused as soon as its
 * declared `Content-Length`, the bytes read off the connection or the bytes a content coding undoes
 * pass the limit (a decompression bomb counts what it inflates to). Then nothing more is read: the
 * request and its socket pause, the answer says `Connection: close`, and the socket is destroyed once
 * it is flushed, so a client cannot make the server take in what it refused (at most one 64 KiB socket
 * read past the limit). Reading the rest off to keep the connection would take every byte sent.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Transform } from 'node:stream';

/** What `readBoundedBody` returns for a body over its limit. */
export const TOO_LARGE = Symbol('too large');

/** Why a read ended early: the client went away before the body ended. */
export const CLIENT_GONE = 'the client closed the connection before the body ended';

/**
 * The body's bytes (through `decoder` when it has a content coding), or TOO_LARGE once more than
 * `limit` bytes were declared, read or decoded: then nothing more is read and `res`, which the
 * caller answers 413, closes the connection (`closeAfterAnswer`). A decoder's error or a client
 * gone mid-body rejects, and the connection closes with that answer too.
 */
export function readBoundedBody(
  req: IncomingMessage, res: ServerResponse, limit: number, decoder?: Transform,
): Promise<Buffer | typeof TOO_LARGE> {
  if (Number(req.headers['content-length']) > limit) {
    closeAfterAnswer(req, res);
    return Promise.resolve(TOO_LARGE);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let read = 0;
    let decoded = 0;
    const source = decoder ?? req;
    const done = (): void => detach(req, decoder, { onRead, onDecoded, onEnd, onError, onClose });
    const tooLarge = (): void => {
      done();
      closeAfterAnswer(req, res);
      resolve(TOO_LARGE);
    };
    function onRead(chunk: Buffer): void {
      read += chunk.length;
      if (read > limit) tooLarge();
    }
    function onDecoded(chunk: Buffer): void {
      decoded += chunk.length;
      if (decoded > limit) tooLarge();
      else chunks.push(chunk);
    }
    function onEnd(): void {
      done();
      resolve(Buffer.concat(chunks));
    }
    function onError(err: Error): void {
      done();
      closeAfterAnswer(req, res);
      reject(err);
    }
    function onClose(): void {
      if (req.complete) return;
      done();
      closeAfterAnswer(req, res);
      reject(new Error(CLIENT_GONE));
    }
    // A decoder sees the raw bytes through the pipe; they are counted on the request too.
    if (decoder) req.on('data', onRead);
    source.on('data', onDecoded);
    source.once('end', onEnd);
    source.once('error', onError);
    req.once('close', onClose);
    if (decoder) req.pipe(decoder);
  });
}

/** The listeners of one bounded read: on the raw request, and on what is decoded (the request without a decoder). */
interface BodyReaders {
  onRead(chunk: Buffer): void;
  onDecoded(chunk: Buffer): void;
  onEnd(): void;
  onError(err: Error): void;
  onClose(): void;
}

/** Takes a finished read's listeners off, and unpipes and destroys its decoder (its late errors swallowed). */
function detach(req: IncomingMessage, decoder: Transform | undefined, readers: BodyReaders): void {
  const source = decoder ?? req;
  req.off('data', readers.onRead);
  req.off('close', readers.onClose);
  source.off('data', readers.onDecoded);
  source.off('end', readers.onEnd);
  source.off('error', readers.onError);
  if (decoder) {
    req.unpipe(decoder);
    decoder.on('error', () => undefined);
    decoder.destroy();
  }
}

/**
 * Ends the connection of a request whose body is not read to its end: the answer carries
 * `Connection: close`, and once it is flushed the socket is destroyed, never read further.
 */
export function closeAfterAnswer(req: IncomingMessage, res: ServerResponse): void {
  stopReading(req);
  res.shouldKeepAlive = false;
  if (!res.headersSent) res.setHeader('Connection', 'close');
  // Node would read the rest of an unread body off the connection once the answer is written
  // (IncomingMessage `_dump`); destroying the socket in the same turn stops it first.
  res.once('finish', () => req.socket.destroy());
  res.once('close', () => req.socket.destroy());
}

/** Pauses the request and its socket, so no more bytes are taken off the connection. */
function stopReading(req: IncomingMessage): void {
  req.pause();
  req.socket.pause();
}
